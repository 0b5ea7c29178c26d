import path from 'node:path';
import { env } from '../env';
import { guardJobWrites } from './job-guard';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { Storage } from './types';

export { ObjectChanged, type SignedUrlOptions, type Storage } from './types';
export { storageKeys } from './keys';

let cached: Storage | undefined;

/**
 * The configured storage provider (STORAGE_PROVIDER): local disk under DATA_DIR by default, or S3.
 */
export function storage(): Storage {
  if (cached) return cached;
  const e = env();
  cached = guardJobWrites(
    e.STORAGE_PROVIDER === 's3'
      ? new S3Storage({
          bucket: e.S3_BUCKET!,
          prefix: e.S3_PREFIX,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          publicEndpoint: e.S3_PUBLIC_ENDPOINT,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          ...(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
            ? {
                credentials: {
                  accessKeyId: e.S3_ACCESS_KEY_ID,
                  secretAccessKey: e.S3_SECRET_ACCESS_KEY,
                },
              }
            : {}),
        })
      : new LocalStorage(path.join(e.dataDir, 'files'), e.PUBLIC_URL),
  );
  return cached;
}

/**
 * Scratch space for incoming files, on the same filesystem as local storage so they can be renamed
 * in.
 */
export function tempDir(): string {
  return path.join(env().dataDir, 'tmp');
}
