import type { Readable } from 'node:stream';

/**
 * Where job files live. The embedded default keeps them under DATA_DIR (local.ts); an S3
 * implementation fits the same shape (signedUrl → presigned URL, localFile → a download into
 * the worker's scratch folder). Keys are relative, slash-separated paths (see keys.ts), never
 * absolute paths.
 */
export interface Storage {
  /** Streams into `key`, never buffering the whole body; over `maxBytes` → ServiceError too_large. */
  writeStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ bytes: number }>;
  /** Stores a local file under `key`; `move` lets the file be renamed in instead of copied. */
  putFile(key: string, file: string, opts?: { move?: boolean }): Promise<void>;
  /**
   * A local file holding the object's bytes, for ffmpeg: the stored file itself where storage
   * is local disk, otherwise a copy downloaded into `scratchDir` (the caller's own folder,
   * removed with it).
   */
  localFile(key: string, scratchDir: string): Promise<string>;
  /** Streams the object's bytes (inclusive byte range when given). */
  openRead(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size of the object, or null when it does not exist. */
  stat(key: string): Promise<{ bytes: number } | null>;
  /** Deletes `key` and everything under `key/`. */
  delete(prefix: string): Promise<void>;
  /** An absolute URL that authorises itself for one method until it expires. */
  signedUrl(key: string, opts: SignedUrlOptions): Promise<string>;
}

export interface SignedUrlOptions {
  method: 'GET' | 'PUT';
  /** Seconds; one hour by default. */
  expiresIn?: number;
  /** Served as the download's file name (Content-Disposition). */
  filename?: string;
}
