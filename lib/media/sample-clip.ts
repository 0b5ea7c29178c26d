import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sampleClipArgs } from '../../engine/media/sample-clip';
import { ffmpeg } from './ffmpeg';
import { SAMPLE_DIR, SAMPLE_FILES } from './sample-files';

/**
 * Makes the sample clip (drawn by ffmpeg) and its transparent cut-out (made with `cutout`, the
 * same pipeline as `keyout remove`), once: a stamp of the drawing's arguments says whether the
 * files on disk are current. Run at prepare time (npm start / npm test), never by the web process.
 */
export async function prepareSampleClip(
  cutout: (clip: string, out: string) => Promise<void>,
  log: (line: string) => void,
): Promise<void> {
  const clip = path.join(SAMPLE_DIR, SAMPLE_FILES.clip);
  const out = path.join(SAMPLE_DIR, SAMPLE_FILES.cutout);
  const stampFile = path.join(SAMPLE_DIR, SAMPLE_FILES.stamp);
  const stamp = createHash('sha256')
    .update(JSON.stringify(sampleClipArgs('-')))
    .digest('hex');
  const current = await fs.readFile(stampFile, 'utf8').catch(() => '');
  const present = await Promise.all(
    [clip, out].map((f) =>
      fs.stat(f).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (current === stamp && present.every(Boolean)) return;
  log('Drawing the sample clip and cutting it out…');
  await fs.mkdir(SAMPLE_DIR, { recursive: true });
  await fs.rm(stampFile, { force: true });
  await ffmpeg(sampleClipArgs(clip), { timeoutMs: 120_000 });
  await cutout(clip, out);
  await fs.writeFile(stampFile, stamp);
}
