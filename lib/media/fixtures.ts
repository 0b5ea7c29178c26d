import fs from 'node:fs/promises';
import path from 'node:path';
import { normalizeFilters } from '../../engine/media/normalize';
import { safeInputArgs } from '../../engine/media/input';
import { MASK_ENCODER, type MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { ffmpeg } from './ffmpeg';
import { probeVideo } from './probe';

/**
 * Real test material for the output encoders, made with ffmpeg from real footage: an excerpt of
 * a clip, and a mask in the segmenter's format (FFV1 gray8 in Matroska, display size, one frame
 * per normalized source frame) showing a soft-edged ellipse that moves sideways. Used by the
 * integration tests, scripts/look-outputs.ts and scripts/bench-outputs.ts.
 */

/** Near-lossless H.264 for excerpts of real footage that tests and benches cut. */
export const EXCERPT_H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18'];

/** The first `seconds` of a clip (audio kept), scaled to at most `maxWidth`, as H.264 MP4. */
export async function makeExcerpt(
  input: string,
  out: string,
  o: { seconds: number; maxWidth?: number },
): Promise<string> {
  const scale = o.maxWidth ? ['-vf', `scale='min(${o.maxWidth},iw)':-2`] : [];
  await ffmpeg(
    [
      '-v',
      'error',
      '-i',
      input,
      '-t',
      String(o.seconds),
      ...scale,
      ...EXCERPT_H264,
      '-c:a',
      'aac',
      out,
    ],
    { timeoutMs: 120_000 },
  );
  return out;
}

/** Output options of the clips below: H.264 in yuv420p, as most uploads are. */
export const H264 = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'];

/** MP4's index at the front, as a browser or a streaming upload wants it. */
export const FASTSTART = ['-movflags', '+faststart'];

/** ffmpeg arguments (the output file follows) of one 8192x8192 frame (67 M pixels), as MJPEG. */
export const HUGE_FRAME = [
  '-f',
  'lavfi',
  '-i',
  'color=s=8192x8192:r=1:d=1',
  '-c:v',
  'mjpeg',
  '-q:v',
  '31',
];

/** ffmpeg arguments (the output file follows) of a tiny file whose second frame is 10 hours in. */
export const TINY_TEN_HOURS = [
  '-f',
  'lavfi',
  '-i',
  'color=s=64x64:r=25:d=0.08',
  '-vf',
  "setpts='if(eq(N,1),36000/TB,PTS)'",
  '-fps_mode',
  'passthrough',
  '-c:v',
  'ffv1',
];

/** ffmpeg arguments (the output file follows) of 4 s of H.264 video with 7 s of AAC sound. */
export const AUDIO_OUTLASTS_VIDEO = [
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=160x120:rate=25:duration=4',
  '-f',
  'lavfi',
  '-t',
  '7',
  '-i',
  'sine=f=440:r=48000',
  '-map',
  '0:v',
  '-map',
  '1:a',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-c:a',
  'aac',
];

/** A filter that puts ten hours between the 49th and 50th frames, as a hostile upload would. */
export const TEN_HOUR_GAP = ['-vf', "setpts='if(gte(N,49),PTS+36000/TB,PTS)'"];

/**
 * A file ffmpeg makes from lavfi source graphs (`color=…`, `testsrc2=…`, `sine=…`: one, or one
 * input each) and output options.
 */
export async function fromLavfi(
  dest: string,
  source: string | string[],
  output: string[] = [],
): Promise<string> {
  const inputs = [source].flat().flatMap((graph) => ['-f', 'lavfi', '-i', graph]);
  await ffmpeg(['-v', 'error', ...inputs, ...output, dest]);
  return dest;
}

/**
 * A synthetic H.264 clip from ffmpeg's test source, for tests that need no real subject. `extra`
 * holds output options (`-movflags +faststart`, a filter, a container).
 */
export function syntheticClip(
  dest: string,
  { seconds = 1, size = '160x120', fps = 25, extra = [] as string[] } = {},
): Promise<string> {
  const source = `testsrc2=size=${size}:rate=${fps}:duration=${seconds}`;
  return fromLavfi(dest, source, [...H264, '-preset', 'ultrafast', ...extra]);
}

/**
 * The first `seconds` of a real clip (from `start`), re-encoded to H.264 MP4: small and fast to
 * process. Its sound is dropped unless `audio`; `filters` scale or crop it.
 */
export async function cutClip(
  src: string,
  dest: string,
  seconds: number,
  o: { start?: number; audio?: boolean; filters?: string } = {},
): Promise<string> {
  await ffmpeg([
    '-v',
    'error',
    ...(o.start ? ['-ss', String(o.start)] : []),
    '-i',
    src,
    '-t',
    String(seconds),
    ...(o.filters ? ['-vf', o.filters] : []),
    ...H264,
    '-preset',
    'veryfast',
    ...(o.audio ? ['-c:a', 'aac'] : ['-an']),
    dest,
  ]);
  return dest;
}

/**
 * The first `seconds` of a clip at 320 px wide, probed, with the moving-ellipse mask: the
 * material the output tests render. Files go in `dir` as `<name>.mp4` and `<name>-mask.mkv`.
 */
export async function excerptWithMask(
  clip: string,
  dir: string,
  name: string,
  seconds: number,
): Promise<{ source: string; info: MediaInfo; mask: string }> {
  const source = await makeExcerpt(clip, path.join(dir, `${name}.mp4`), { seconds, maxWidth: 320 });
  const info = await probeVideo(source);
  const mask = await makeTestMask(source, info, path.join(dir, `${name}-mask.mkv`));
  return { source, info, mask };
}

/** Centre and size of the test ellipse at normalized frame n (for tests that check pixels). */
export function testMaskEllipse(info: Pick<MediaInfo, 'width' | 'height' | 'fps'>, n: number) {
  const rx = Math.round(info.width * 0.15);
  const ry = Math.round(info.height * 0.3);
  const t = n / info.fps;
  return { cx: info.width / 2 + info.width * 0.2 * Math.sin(2 * t), cy: info.height / 2, rx, ry };
}

/**
 * Writes the moving-ellipse mask for a probed source. The ellipse is drawn once and moved by
 * overlay (drawing it per frame with geq is ~50x slower), then softened with a small blur.
 */
export async function makeTestMask(source: string, info: MediaInfo, out: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(path.dirname(out), '.mask-'));
  try {
    const { rx, ry } = testMaskEllipse(info, 0);
    const disc = path.join(dir, 'disc.png');
    await ffmpeg(
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `color=black:s=${2 * rx}x${2 * ry},format=gray,` +
          `geq=lum='255*lte(hypot((X-${rx})/${rx}\\,(Y-${ry})/${ry})\\,` +
          "1)'",
        '-frames:v',
        '1',
        disc,
      ],
      { timeoutMs: 60_000 },
    );
    const x = `W/2-${rx}+${info.width * 0.2}*sin(2*t)`;
    await ffmpeg(
      [
        '-v',
        'error',
        ...safeInputArgs(info, source, env().MAX_FRAME_PIXELS),
        '-loop',
        '1',
        '-i',
        disc,
        '-filter_complex',
        `[0:v]${normalizeFilters(info).join(',')},format=gray,drawbox=c=black:t=fill[b];` +
          (`[1:v]format=gray[d];[b][d]overlay=x='${x}':y='(H-h)/2':` +
            'shortest=1,gblur=sigma=2,format=gray'),
        ...MASK_ENCODER,
        out,
      ],
      { timeoutMs: 300_000 },
    );
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
