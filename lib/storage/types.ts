import type { Readable } from 'node:stream';

/**
 * Where job files live: under DATA_DIR (local.ts, the embedded default) or in an S3-compatible
 * bucket (s3.ts: signedUrl → a presigned URL, localFile → a download into the worker's scratch
 * folder). Keys are relative, slash-separated paths (see keys.ts), never absolute paths.
 */
export interface Storage {
  /**
   * Streams into `key`, never buffering the whole body; over `maxBytes` → ServiceError too_large.
   */
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
  /**
   * Size and version (an ETag, or size and time on disk) of the object, or null when it does not
   * exist.
   */
  stat(key: string): Promise<{ bytes: number; version: string } | null>;
  /**
   * Renames an object: a client's direct upload becomes the job's source, out of the upload
   * URL's reach. With `ifVersion`, only that version of it (else ObjectChanged), so what was
   * checked is what is kept.
   */
  move(from: string, to: string, opts?: { ifVersion?: string }): Promise<void>;
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
  /** PUT only: the Content-Type the upload must carry (signed where the store checks it). */
  contentType?: string;
  /** PUT only: the upload's exact size in bytes, signed where the store checks it (S3). */
  contentLength?: number;
}

/** The object was replaced since it was looked at (move with ifVersion). */
export class ObjectChanged extends Error {
  override name = 'ObjectChanged';
}
