import fs from 'node:fs';
import path from 'node:path';
import { cutClip, syntheticClip } from '../../../lib/media/fixtures';
import { planeStats } from '../../../lib/media/validate/planes';
import { allFrames, vp9WithAlpha } from '../../support/frames';
import { ROOT } from './stack';

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

/** Alpha statistics over every frame of a VP9 WebM. */
export async function alphaStats(
  webm: string,
): Promise<{ min: number; max: number; mean: number; pixels: number }> {
  const alpha = await allFrames(vp9WithAlpha(webm), 'gray', 'alphaextract');
  const { min, max, mean } = planeStats(alpha);
  return { min, max, mean, pixels: alpha.length };
}
