import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { cutClip, syntheticClip } from '../../../lib/media/fixtures';
import { planeStats } from '../../../lib/media/validate/planes';
import { ROOT } from './stack';

const run = promisify(execFile);

export const TESTDATA = path.resolve(ROOT, '../shared/testdata');
export const hasTestdata = fs.existsSync(path.join(TESTDATA, 'videos'));

export function testVideo(name: string): string {
  return path.join(TESTDATA, 'videos', name);
}

/**
 * The first `seconds` of the talking-head clip, long enough to catch a job mid-way, or a
 * synthetic one of the same size where ../shared/testdata is absent.
 */
export function talkingOrSynthetic(dest: string, seconds: number): Promise<string> {
  return hasTestdata
    ? cutClip(testVideo('liveportrait_d12_talking_glasses_512.mp4'), dest, seconds)
    : syntheticClip(dest, { seconds, size: '512x512' });
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
