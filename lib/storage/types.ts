import type { Readable } from 'node:stream';

/**
 * Where job files live. The embedded default keeps them under DATA_DIR (local.ts); an S3
 * implementation fits the same shape (signedUrl → presigned URL, localPath → download to a
 * cache). Keys are relative, slash-separated paths (see keys.ts), never absolute paths.
 */
export interface Storage {
  /** Streams into `key`, never buffering the whole body; over `maxBytes` → ServiceError too_large. */
  writeStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ bytes: number }>;
  /** Stores a local file under `key`; `move` lets the file be renamed in instead of copied. */
  putFile(key: string, file: string, opts?: { move?: boolean }): Promise<void>;
  /** A local path holding the object's bytes, for ffmpeg. */
  localPath(key: string): Promise<string>;
  /** Size of the object, or null when it does not exist. */
  stat(key: string): Promise<{ bytes: number } | null>;
  /** Deletes `key` and everything under `key/`. */
  delete(prefix: string): Promise<void>;
  /** An absolute URL that authorises itself for one method until it expires. */
  signedUrl(key: string, opts: SignedUrlOptions): string;
}

export interface SignedUrlOptions {
  method: 'GET' | 'PUT';
  /** Seconds; one hour by default. */
  expiresIn?: number;
  /** Served as the download's file name (Content-Disposition). */
  filename?: string;
}
