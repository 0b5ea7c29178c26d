import fs from 'node:fs/promises';
import path from 'node:path';
import { env } from '../env';

/**
 * A private scratch folder for one unit of work (DATA_DIR/work/<name>), empty when `fn` starts
 * and removed when it ends, whatever happens: nothing of one job can be reached from another's.
 */
export async function withScratch<T>(name: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = path.join(env().dataDir, 'work', name);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
