import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { planeStats } from '../../../lib/media/validate/planes';
import { ROOT } from './stack';

const run = promisify(execFile);

export const TESTDATA = path.resolve(ROOT, '../shared/testdata');
export const hasTestdata = fs.existsSync(path.join(TESTDATA, 'videos'));

export function testVideo(name: string): string {
  return path.join(TESTDATA, 'videos', name);
}

/** The first `seconds` of a real clip, re-encoded to H.264 MP4 (small, fast to process). */
export async function cutClip(src: string, dest: string, seconds: number): Promise<string> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    src,
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-an',
    dest,
  ]);
  return dest;
}

/** A synthetic clip with ffmpeg's test source, for tests that do not need a real subject. */
export async function syntheticClip(
  dest: string,
  { seconds = 1, size = '160x120', fps = 25 } = {},
): Promise<string> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=${fps}:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    dest,
  ]);
  return dest;
}

/** Per-frame alpha statistics of a VP9 WebM, decoded with libvpx (ffmpeg's own decoder drops alpha). */
export async function alphaStats(
  webm: string,
): Promise<{ min: number; max: number; mean: number; pixels: number }> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-c:v',
      'libvpx-vp9',
      '-i',
      webm,
      '-vf',
      'alphaextract,format=gray',
      '-f',
      'rawvideo',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
  );
  const { min, max, mean } = planeStats(stdout);
  return { min, max, mean, pixels: stdout.length };
}
