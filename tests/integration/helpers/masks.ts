import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { stackDb } from './db';
import type { Stack } from './stack';

const run = promisify(execFile);

/**
 * Writes a second mask version (the first one inverted) through the mask-version service and
 * makes it active, as a refinement will: a stand-in for the refinement issue's own versions.
 */
export async function writeInvertedMaskVersion(
  stack: Stack,
  jobId: string,
  version: number,
): Promise<void> {
  const prisma = await stackDb(stack);
  const { storage } = await import('../../../lib/storage');
  const { storeMaskVersion, activateMaskVersion } = await import('../../../lib/services/masks');
  const first = await prisma.maskVersion.findFirstOrThrow({ where: { jobId, version: 1 } });
  const src = await storage().localFile(first.storageKey!, stack.dataDir);
  const out = path.join(stack.dataDir, `mask-v${version}-${jobId}.mkv`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    src,
    '-vf',
    'negate,format=gray',
    '-c:v',
    'ffv1',
    '-level',
    '3',
    out,
  ]);
  await storeMaskVersion(jobId, version, out, 'test-inverted');
  await prisma.$transaction((tx) => activateMaskVersion(tx, jobId, version));
}
