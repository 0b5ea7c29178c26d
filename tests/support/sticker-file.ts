import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { StickerPolicy } from '../../engine/formats';
import { countedProbe } from './counted-probe';

/**
 * An independent look at a sticker file, shared by the server's integration tests and the
 * studio's e2e: ffprobe, webpmux and the libvpx decoder, never the renderer's code. Native
 * FFmpeg 5.1 cannot demux animated WebP, so webpmux reads its container and stills of frames are
 * decoded; VP9 is decoded with libvpx (ffmpeg's own decoder drops alpha).
 */
export interface SeenSticker {
  codec: string;
  width: number;
  height: number;
  frames: number;
  duration: number;
  /** Stream types, in order ("video", "audio"). */
  streams: string[];
  /** Every alpha value of a few frames (10 %, 50 %, 90 % through). */
  alpha: number[];
  /**
   * VP9: the Matroska track says it carries alpha. WebP: the canvas says "animation transparency".
   */
  alphaFlagged: boolean;
  /** Animated images: the loop count is 0 (forever). */
  loopsForever: boolean | null;
  bytes: number;
}

const run = promisify(execFile);
const exec = async (cmd: string, args: string[]) =>
  (await run(cmd, args, { encoding: 'buffer', maxBuffer: 1 << 30 })).stdout;

/** Every alpha value of frames 10 %, 50 % and 90 % through `input` (ffmpeg input arguments). */
export async function alphaValues(input: string[], frames: number): Promise<number[]> {
  const picks = [0.1, 0.5, 0.9].map((f) => Math.floor(frames * f));
  const select = picks.map((n) => `eq(n\\,${n})`).join('+');
  const out = await exec('ffmpeg', [
    '-v',
    'error',
    ...input,
    '-vf',
    `select='${select}',format=rgba,alphaextract,format=gray`,
    '-fps_mode',
    'passthrough',
    '-f',
    'rawvideo',
    '-',
  ]);
  return [...out];
}

export async function lookAtSticker(
  file: string,
  codec: string,
  scratchDir: string,
): Promise<SeenSticker> {
  const bytes = (await exec('stat', ['-c', '%s', file])).toString().trim();
  if (codec === 'webp') {
    const info = (await exec('webpmux', ['-info', file])).toString();
    const [, w, h] = /Canvas size: (\d+) x (\d+)/.exec(info)!;
    const frames = Number(/Number of frames: (\d+)/.exec(info)![1]);
    const rows = info.split('\n').filter((l) => /^\s*\d+:/.test(l));
    const duration =
      rows.map((l) => Number(l.trim().split(/\s+/)[6])).reduce((a, b) => a + b, 0) / 1000;
    const alpha: number[] = [];
    for (const n of [Math.ceil(frames * 0.1), Math.ceil(frames * 0.5)]) {
      const still = path.join(scratchDir, `${path.basename(file)}-frame${n}.webp`);
      await exec('webpmux', ['-get', 'frame', String(n), file, '-o', still]);
      // A loop, not push(...values): a 512x512 frame's 262,144 arguments overflow the stack.
      for (const a of await alphaValues(['-i', still], 1)) alpha.push(a);
    }
    return {
      codec: 'webp',
      width: Number(w),
      height: Number(h),
      frames,
      duration,
      streams: ['video'],
      alpha,
      alphaFlagged: /Features present: animation transparency/.test(info),
      loopsForever: info.includes('Loop Count : 0'),
      bytes: Number(bytes),
    };
  }
  const demuxer =
    codec === 'vp9' ? ['-f', 'matroska'] : codec === 'apng' ? ['-f', 'apng'] : ['-f', 'gif'];
  const probe = await countedProbe(file, demuxer);
  const v = probe.streams.find((s) => s.codec_type === 'video')!;
  const frames = Number(v.nb_read_frames);
  // ffprobe states no container duration for APNG: its frames at their (constant) rate.
  const [num, den] = v.avg_frame_rate.split('/').map(Number) as [number, number];
  const duration = probe.format.duration ? Number(probe.format.duration) : frames / (num / den);
  const decoder = codec === 'vp9' ? ['-c:v', 'libvpx-vp9'] : [];
  return {
    codec: v.codec_name,
    width: v.width,
    height: v.height,
    frames,
    duration,
    streams: probe.streams.map((s) => s.codec_type),
    alpha: await alphaValues([...demuxer, ...decoder, '-i', file], frames),
    alphaFlagged: codec === 'vp9' ? (v.tags?.ALPHA_MODE ?? v.tags?.alpha_mode) === '1' : true,
    loopsForever: null,
    bytes: Number(bytes),
  };
}

/**
 * What is wrong with a sticker file against its platform's policy: codec, canvas, a whole loop
 * within the cap, 12–30 fps, bytes within the budget, no audio, alpha (partial where the codec
 * has it, binary for GIF). Empty when nothing is.
 */
export function stickerProblems(
  seen: SeenSticker,
  policy: StickerPolicy,
  sourceSeconds: number,
): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => (ok ? undefined : problems.push(what));
  expect(seen.codec === policy.codec.codec, `codec ${seen.codec}, not ${policy.codec.codec}`);
  expect(
    seen.width === policy.canvas.width && seen.height === policy.canvas.height,
    `canvas ${seen.width}x${seen.height}, not ${policy.canvas.width}x${policy.canvas.height}`,
  );
  expect(
    seen.duration <= policy.maxSeconds + 0.001,
    `${seen.duration} s, over the ${policy.maxSeconds} s cap`,
  );
  // The whole loop is there: a long source is sped up, not cut.
  expect(
    seen.duration > Math.min(sourceSeconds, policy.maxSeconds) - 0.1,
    `${seen.duration} s: the loop is cut short`,
  );
  const fps = seen.frames / seen.duration;
  expect(fps >= 12 - 0.05 && fps <= 30.05, `${fps.toFixed(2)} fps, outside 12-30`);
  expect(
    seen.bytes <= policy.budgetBytes,
    `${seen.bytes} bytes, over the ${policy.budgetBytes} budget`,
  );
  expect(
    seen.streams.join() === 'video',
    `streams ${seen.streams.join()}: only one video stream, no audio`,
  );
  expect(seen.alphaFlagged, 'the file does not say it has alpha');
  if (seen.loopsForever !== null) expect(seen.loopsForever, 'it does not loop forever');
  const values = new Set(seen.alpha);
  expect(values.has(0) && values.has(255), 'it lacks fully transparent or fully opaque pixels');
  const partial = seen.alpha.filter((a) => a > 0 && a < 255).length;
  if (policy.codec.alpha === 'binary')
    expect(partial === 0, `${partial} partially transparent pixels in binary alpha`);
  else expect(partial > 0, 'no partial alpha');
  return problems;
}
