import { stackDb } from '../integration/helpers/db';
import type { Stack } from '../integration/helpers/stack';

/** The stored file of a job's mask version as the worker wrote it, as a local path. */
export async function maskVersionFile(
  stack: Stack,
  jobId: string,
  version: number,
): Promise<string> {
  const prisma = await stackDb(stack);
  const { storage } = await import('../../lib/storage');
  const m = await prisma.maskVersion.findFirstOrThrow({ where: { jobId, version } });
  return storage().localFile(m.storageKey!, stack.dataDir);
}
