import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeFilters } from '../../engine/media/normalize';
import { FASTSTART, fromLavfi, syntheticClip, TEN_HOUR_GAP } from '../../lib/media/fixtures';
import { probeVideo } from '../../lib/media/probe';
import { renderOutput } from '../../lib/media/render';
import { segmentVideo, type SegmentProgress } from '../../lib/segment/mask-video';
import { countedProbe } from '../support/counted-probe';
import { allFrames, rawFrame } from '../support/frames';
import { hasTestdata, testVideo } from './helpers';

const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-engine-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function maskFacts(file: string) {
  const s = (await countedProbe(file)).streams[0]!;
  const raw = await allFrames(['-i', file], 'gray');
  return {
    codec: s.codec_name,
    pixFmt: s.pix_fmt,
    width: s.width,
    height: s.height,
    frames: Number(s.nb_read_frames),
    values: new Set(raw),
  };
}

/** Frames the encoders see: the source through the shared timeline filters, as they decode it. */
async function normalizedFrameCount(
  file: string,
  info: Parameters<typeof normalizeFilters>[0],
): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-vf',
    normalizeFilters(info).join(','),
    '-f',
    'null',
    '-',
  ]);
  const m = [...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1);
  return Number(m?.[1]);
}

/** Frame `n` of service-human's mask of the test clip `name`, its first `frames` segmented. */
async function maskFrame(name: string, n: number, frames: number): Promise<Buffer> {
  const input = testVideo(name);
  const info = await probeVideo(input);
  const maskOut = path.join(tmp, `${path.parse(name).name}.mkv`);
  await segmentVideo({ input, info, maskOut, model: 'service-human', maxFrames: frames });
  return rawFrame(['-i', maskOut], n, 'gray');
}

describe('segmentVideo (real ffmpeg and models)', () => {
  it(
    'writes one FFV1 gray mask frame per normalized frame at an odd ' +
      'size, with hard alpha on request',
    async () => {
      const input = path.join(tmp, 'odd.mp4');
      // Variable frame rate: timestamps jump after frame 10.
      await fromLavfi(input, 'testsrc2=size=333x187:rate=25:duration=1.2', [
        '-vf',
        "scale=333:187,setpts='if(lt(N,10),N,N+7)/25/TB'",
        '-fps_mode',
        'vfr',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv444p',
      ]);
      const info = await probeVideo(input);
      const progress: SegmentProgress[] = [];
      const maskOut = path.join(tmp, 'odd.mkv');
      const res = await segmentVideo({
        input,
        info,
        maskOut,
        model: 'service-human',
        threshold: 0.5,
        onProgress: (p) => progress.push(p),
      });
      const mask = await maskFacts(maskOut);
      expect(mask).toMatchObject({ codec: 'ffv1', pixFmt: 'gray', width: 333, height: 187 });
      expect(mask.frames).toBe(await normalizedFrameCount(input, info));
      expect(res.framesWritten).toBe(mask.frames);
      expect([...mask.values].every((v) => v === 0 || v === 255)).toBe(true);
      expect(progress.at(-1)).toMatchObject({ framesDone: res.framesWritten, etaSeconds: 0 });
      expect(Object.keys(res.stageSeconds).sort()).toEqual(['decode', 'encode', 'infer', 'refine']);
    },
  );

  it(
    'fails a file whose frames stop decoding halfway, instead of a ' + 'mask of half the video',
    async () => {
      // An intact index over zeroed data: the packets are all there (the upload's probe passes),
      // the decoder gives up after the first second.
      const whole = path.join(tmp, 'whole.mp4');
      await syntheticClip(whole, { seconds: 2, size: '256x256', extra: FASTSTART });
      const bytes = fs.readFileSync(whole);
      const mdat = bytes.indexOf('mdat');
      const end = mdat - 4 + bytes.readUInt32BE(mdat - 4);
      bytes.fill(0, Math.floor((mdat + 4 + end) / 2), end);
      const damaged = path.join(tmp, 'damaged.mp4');
      fs.writeFileSync(damaged, bytes);
      const info = await probeVideo(damaged);
      expect(info.duration).toBe(2);
      await expect(
        segmentVideo({
          input: damaged,
          info,
          maskOut: path.join(tmp, 'damaged.mkv'),
          model: 'service-human',
        }),
      ).rejects.toThrow(/^The video could not be decoded past 1\.\d s of its 2\.0 s: the file /);
    },
  );

  it.skipIf(!hasTestdata)(
    'honours the display rotation of a phone video and finds the person',
    async () => {
      const raw = await maskFrame(
        'liveportrait_d13_stored_landscape_displaymatrix_portrait.mov',
        0,
        20,
      );
      expect(raw.length).toBe(720 * 1280);
      const mean = raw.reduce((s, v) => s + v, 0) / raw.length;
      // A head-and-shoulders portrait: a real share of the frame, not all of it.
      expect(mean).toBeGreaterThan(20);
      expect(mean).toBeLessThan(200);
      // Subject in the middle column of the portrait frame, background in the top corners.
      expect(raw[640 * 720 + 360]).toBeGreaterThan(128);
      expect(raw[5 * 720 + 5]).toBeLessThan(128);
    },
  );

  it.skipIf(!hasTestdata)(
    'keeps a person solid up to the edge where the background is as light as the skin',
    async () => {
      // A full-body dancer on a near-white backdrop: the luma guide barely separates arms and legs
      // from it, and without the edge gain the limbs came out see-through (soft/solid 0.48).
      const raw = await maskFrame('liveportrait_s13_dance_fullbody_white_bg_720x1080.mp4', 50, 51);
      expect(raw.length).toBe(720 * 1080);
      let soft = 0;
      let solid = 0;
      for (const v of raw) {
        if (v >= 230) solid++;
        else if (v > 25) soft++;
      }
      expect(solid).toBeGreaterThan(0.1 * raw.length);
      expect(soft / solid).toBeLessThan(0.2);
    },
  );

  it('refuses a file whose frames run on past its declared duration before any work', async () => {
    // 50 frames, the last one 10 hours later; the header then says 2 s. Decoded naively, the
    // frame-rate filter would repeat the 49th frame for 10 hours. The probe reads the frames'
    // own timestamps, so the lie is refused at upload (the decoders' duration-plus-a-second
    // limit, engine/media/normalize.ts, stays as a second line).
    const honest = path.join(tmp, 'gap.mkv');
    await syntheticClip(honest, { seconds: 2, extra: TEN_HOUR_GAP });
    const bytes = fs.readFileSync(honest);
    // Matroska Duration, an 8-byte float in ms
    const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
    expect(bytes.readDoubleBE(at + 3)).toBeGreaterThan(36_000_000);
    bytes.writeDoubleBE(2000, at + 3);
    const input = path.join(tmp, 'lying.mkv');
    fs.writeFileSync(input, bytes);
    await expect(probeVideo(input, { metadataOnly: true })).rejects.toThrow(
      'The video is 36002.0 s long; the limit is 600 s.',
    );
  });

  it(
    'keeps the timeline and the probed size when a stream changes ' +
      'frame size mid-way, and refuses frames over the pixel cap',
    async () => {
      // Two H.264 streams joined: 25 frames at 160x120, then 25 at a larger size. The header
      // (and so the probe) only knows the first.
      const joined = async (name: string, second: string) => {
        const parts = [
          ['160x120', path.join(tmp, `${name}-a.h264`)],
          [second, path.join(tmp, `${name}-b.h264`)],
        ] as const;
        for (const [size, file] of parts) {
          await syntheticClip(file, { size, extra: ['-f', 'h264'] });
        }
        const raw = path.join(tmp, `${name}.h264`);
        fs.writeFileSync(raw, Buffer.concat(parts.map(([, f]) => fs.readFileSync(f))));
        const file = path.join(tmp, `${name}.mkv`);
        await run('ffmpeg', ['-v', 'error', '-y', '-r', '25', '-i', raw, '-c', 'copy', file]);
        const info = await probeVideo(file);
        expect(info).toMatchObject({ width: 160, height: 120, duration: 2 });
        return { file, info };
      };

      // Under the cap (a stream that grows, as WebRTC recordings do): every frame, at the probed
      // size.
      const grows = await joined('grows', '320x240');
      const res = await segmentVideo({
        input: grows.file,
        info: grows.info,
        maskOut: path.join(tmp, 'grows-mask.mkv'),
        model: 'service-human',
      });
      expect(res.framesWritten).toBe(50);
      const out = await renderOutput({
        source: grows.file,
        info: grows.info,
        mask: path.join(tmp, 'grows-mask.mkv'),
        recipe: { kind: 'transparent', format: 'webm_vp9' },
        outDir: path.join(tmp, 'grows-out'),
      });
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-count_frames',
        '-show_entries',
        'stream=width,height,nb_read_frames',
        '-of',
        'json',
        out.file,
      ]);
      expect((JSON.parse(stdout) as { streams: unknown[] }).streams[0]).toMatchObject({
        width: 160,
        height: 120,
        nb_read_frames: '50',
      });

      // Over the cap (8192x8192 is 67 M pixels; the limit is 9.4 M): those frames are not decoded,
      // and a job that would get half its video fails (and is refunded) instead.
      const bomb = await joined('bomb', '8192x8192');
      await expect(
        segmentVideo({
          input: bomb.file,
          info: bomb.info,
          maskOut: path.join(tmp, 'bomb-mask.mkv'),
          model: 'service-human',
        }),
      ).rejects.toThrow(
        'The video could not be decoded past 1.0 s of its 2.0 s: the ' +
          'file is damaged or incomplete.',
      );
    },
  );

  it('stops promptly when aborted', async () => {
    const input = path.join(tmp, 'long.mp4');
    await syntheticClip(input, { seconds: 20, size: '320x240' });
    const info = await probeVideo(input);
    const ctrl = new AbortController();
    const p = segmentVideo({
      input,
      info,
      maskOut: path.join(tmp, 'long.mkv'),
      model: 'service-human',
      signal: ctrl.signal,
      onProgress: () => ctrl.abort(),
    });
    await expect(p).rejects.toThrow(/cancelled/);
  });
});
