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
  const { defaultPorts } = await import('../../../lib/services/ports');
  const { storeMaskVersion, activateMaskVersion } =
    await import('../../../lib/services/masks/mask-versions');
  const src = await maskVersionFile(stack, jobId, 1);
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
  await storeMaskVersion(defaultPorts, jobId, version, out, 'test-inverted');
  const prisma = await stackDb(stack);
  await prisma.$transaction((tx) => activateMaskVersion(tx, jobId, version));
}

/** A mask video's (or PNG sequence's) frames as 8-bit gray planes of width × height. */
export async function grayFrames(
  input: string,
  width: number,
  height: number,
): Promise<Uint8Array[]> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', input, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  const size = width * height;
  const frames: Uint8Array[] = [];
  for (let off = 0; off + size <= stdout.length; off += size)
    frames.push(stdout.subarray(off, off + size));
  return frames;
}

/**
 * DAVIS region similarity J (intersection over union at 0.5), averaged over frames; an empty pair
 * counts 1.
 */
export const meanJ = (pred: Uint8Array[], gt: Uint8Array[]) =>
  pred.reduce((s, p, f) => {
    let inter = 0;
    let union = 0;
    for (let i = 0; i < p.length; i++) {
      const a = p[i]! >= 128;
      const b = gt[f]![i]! >= 128;
      if (a && b) inter++;
      if (a || b) union++;
    }
    return s + (union ? inter / union : 1);
  }, 0) / pred.length;

/** The stored file of a job's mask version as the worker wrote it, as a local path. */
export async function maskVersionFile(
  stack: Stack,
  jobId: string,
  version: number,
): Promise<string> {
  const prisma = await stackDb(stack);
  const { storage } = await import('../../../lib/storage');
  const m = await prisma.maskVersion.findFirstOrThrow({ where: { jobId, version } });
  return storage().localFile(m.storageKey!, stack.dataDir);
}
