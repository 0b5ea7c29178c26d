import path from 'node:path';
import { env } from '../env';
import { guardJobWrites } from './job-guard';
import { LocalStorage } from './local';
import type { Storage } from './types';

export type { SignedUrlOptions, Storage } from './types';
export { storageKeys } from './keys';

let cached: Storage | undefined;

/** The configured storage provider (STORAGE_PROVIDER; local disk under DATA_DIR by default). */
export function storage(): Storage {
  if (cached) return cached;
  const e = env();
  cached = guardJobWrites(new LocalStorage(path.join(e.dataDir, 'files'), e.PUBLIC_URL));
  return cached;
}

/** Scratch space on the same filesystem as local storage, so finished files can be renamed in. */
export function tempDir(): string {
  return path.join(env().dataDir, 'tmp');
}
