import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the sample clip and its cut-out live: public/sample of the app (Next serves public/ as is).
 */
export const SAMPLE_DIR = path.join(process.cwd(), 'public', 'sample');
export const SAMPLE_FILES = {
  clip: 'keyout-sample.mp4',
  cutout: 'keyout-sample-cutout.webm',
  stamp: '.stamp',
} as const;

/**
 * The public URLs of the sample and its cut-out, or null when they were not made on this server.
 */
export function sampleUrls(): { clip: string; cutout: string } | null {
  const there = existsSync(path.join(SAMPLE_DIR, SAMPLE_FILES.stamp));
  return there
    ? { clip: `/sample/${SAMPLE_FILES.clip}`, cutout: `/sample/${SAMPLE_FILES.cutout}` }
    : null;
}
