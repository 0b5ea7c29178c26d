import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sampleClipArgs } from '../../engine/media/sample-clip';
import { ffmpeg } from './ffmpeg';

/** Where the sample clip and its cut-out are served from (Next serves public/ as is). */
export const SAMPLE_DIR = path.resolve(import.meta.dirname, '../../public/sample');
export const SAMPLE_FILES = { clip: 'keyout-sample.mp4', cutout: 'keyout-sample-cutout.webm' } as const;

/** The public URLs of the sample and its cut-out, or null when they were not made on this server. */
export function sampleUrls(): { clip: string; cutout: string } | null {
  const there = existsSync(path.join(SAMPLE_DIR, '.stamp'));
  return there ? { clip: `/sample/${SAMPLE_FILES.clip}`, cutout: `/sample/${SAMPLE_FILES.cutout}` } : null;
}

/**
 * Makes the sample clip (drawn by ffmpeg) and its transparent cut-out (made with `cutout`, the
 * same pipeline as `keyout remove`), once: a stamp of the drawing's arguments says whether the
 * files on disk are current. Run at prepare time (npm start / npm test), never by the web process.
 */
export async function prepareSampleClip(cutout: (clip: string, out: string) => Promise<void>, log: (line: string) => void): Promise<void> {
  const clip = path.join(SAMPLE_DIR, SAMPLE_FILES.clip);
  const out = path.join(SAMPLE_DIR, SAMPLE_FILES.cutout);
  const stampFile = path.join(SAMPLE_DIR, '.stamp');
  const stamp = createHash('sha256').update(JSON.stringify(sampleClipArgs('-'))).digest('hex');
  const current = await fs.readFile(stampFile, 'utf8').catch(() => '');
  const present = await Promise.all([clip, out].map((f) => fs.stat(f).then(() => true, () => false)));
  if (current === stamp && present.every(Boolean)) return;
  log('Drawing the sample clip and cutting it out…');
  await fs.mkdir(SAMPLE_DIR, { recursive: true });
  await fs.rm(stampFile, { force: true });
  await ffmpeg(sampleClipArgs(clip), { timeoutMs: 120_000 });
  await cutout(clip, out);
  await fs.writeFile(stampFile, stamp);
}
