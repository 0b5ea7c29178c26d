import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BuildMiddleware, MetadataBearer } from '@smithy/types';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition, contentTypeOf, isSafeKey } from './keys';
import { tooLarge } from './limited-write';
import { ObjectChanged, type SignedUrlOptions, type Storage } from './types';

export interface S3Options {
  bucket: string;
  /** Prepended to every key ("" or a folder ending in "/"). */
  prefix: string;
  region: string;
  endpoint?: string;
  /**
   * The endpoint clients reach, when it differs (presigned URLs are signed for the host they name).
   */
  publicEndpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Parts of a multipart upload: memory per upload stays at PART_BYTES × PARTS_IN_FLIGHT. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

/** A byte counter that fails the stream once `maxBytes` is passed (nothing of it is kept). */
function limit(maxBytes: number): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      done(t.bytes > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

/**
 * Multi-object delete carries a Content-MD5: S3 once required it, and stores that follow that
 * older rule (OpenStack Swift's s3api among them) refuse the request without it, while the SDK
 * now sends only its newer checksums.
 */
const contentMd5ForBatchDeletes: BuildMiddleware<object, MetadataBearer> =
  (next, context) => (args) => {
    const request = args.request as { headers?: Record<string, string>; body?: unknown };
    if (
      context.commandName === 'DeleteObjectsCommand' &&
      request.headers &&
      typeof request.body === 'string'
    ) {
      request.headers['content-md5'] = createHash('md5').update(request.body).digest('base64');
    }
    return next(args);
  };

function notFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404
  );
}

/**
 * Files in an S3-compatible bucket (AWS S3, or a self-hosted store: tested against OpenStack
 * Swift's s3api). Workers stream objects to and from their own scratch folders (multipart for
 * large outputs, never whole files in memory); clients get presigned URLs, so bytes never pass
 * through the web processes: a PUT for the upload (one request, the Content-Type given at
 * creation) and GETs for results (Range works, as S3 serves it).
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly presigner: S3Client;

  constructor(private readonly opts: S3Options) {
    const config = (endpoint?: string): S3ClientConfig => ({
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      // Checksums only where S3 requires them: self-hosted stores do not all know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      ...(endpoint ? { endpoint } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
    });
    this.client = new S3Client(config(opts.endpoint));
    this.client.middlewareStack.add(contentMd5ForBatchDeletes, {
      step: 'build',
      name: 'contentMd5ForBatchDeletes',
    });
    this.presigner = opts.publicEndpoint ? new S3Client(config(opts.publicEndpoint)) : this.client;
  }

  private key(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return `${this.opts.prefix}${key}`;
  }

  private upload(key: string, body: Readable, contentLength?: number): Upload {
    return new Upload({
      client: this.client,
      params: {
        Bucket: this.opts.bucket,
        Key: this.key(key),
        Body: body,
        ContentType: contentTypeOf(key),
        ...(contentLength !== undefined ? { ContentLength: contentLength } : {}),
      },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
  }

  async writeStream(
    key: string,
    body: Readable,
    { maxBytes }: { maxBytes: number },
  ): Promise<{ bytes: number }> {
    const counter = limit(maxBytes);
    const through = new PassThrough();
    const upload = this.upload(key, through);
    const done = upload.done();
    try {
      await Promise.all([pipeline(body, counter, through), done]);
    } catch (e) {
      await upload.abort().catch(() => undefined);
      await done.catch(() => undefined);
      throw e;
    }
    return { bytes: counter.bytes };
  }

  async putFile(key: string, file: string, opts: { move?: boolean } = {}): Promise<void> {
    const { size } = await fs.stat(file);
    await this.upload(key, createReadStream(file), size).done();
    if (opts.move) await fs.rm(file, { force: true });
  }

  async localFile(key: string, scratchDir: string): Promise<string> {
    const dest = path.join(scratchDir, path.posix.basename(key));
    await pipeline(await this.openRead(key), createWriteStream(dest, { mode: 0o600 }));
    return dest;
  }

  async openRead(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const res = await this.client.send(
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.key(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return res.Body as Readable;
  }

  async stat(key: string): Promise<{ bytes: number; version: string } | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.key(key) }),
      );
      return { bytes: head.ContentLength ?? 0, version: head.ETag ?? '' };
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  }

  /** A server-side copy (CopySourceIfMatch carries ifVersion), then the original is deleted. */
  async move(from: string, to: string, opts: { ifVersion?: string } = {}): Promise<void> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.key(to),
          CopySource: `${this.opts.bucket}/${encodedKey(this.key(from))}`,
          ...(opts.ifVersion ? { CopySourceIfMatch: opts.ifVersion } : {}),
        }),
      );
    } catch (e) {
      const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (err.name === 'PreconditionFailed' || err.$metadata?.httpStatusCode === 412)
        throw new ObjectChanged(`${from} changed`);
      throw e;
    }
    await this.delete(from);
  }

  /** The object `key` and every object under `key/`, in pages of 1000 (S3's batch limit). */
  async delete(prefix: string): Promise<void> {
    const base = this.key(prefix);
    const doomed = [base];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.opts.bucket,
          Prefix: `${base}/`,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) if (o.Key) doomed.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for (let i = 0; i < doomed.length; i += 1000) {
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.opts.bucket,
          Delete: { Objects: doomed.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(
          `Deleting ${failed.length} objects under ${prefix} failed: ` +
            `${failed[0]!.Code} ${failed[0]!.Message ?? ''}`,
        );
    }
  }

  signedUrl(
    key: string,
    { method, expiresIn = 3600, filename, contentType, contentLength }: SignedUrlOptions,
  ): Promise<string> {
    const Key = this.key(key);
    const command =
      method === 'PUT'
        ? new PutObjectCommand({
            Bucket: this.opts.bucket,
            Key,
            ...(contentType ? { ContentType: contentType } : {}),
            ...(contentLength !== undefined ? { ContentLength: contentLength } : {}),
          })
        : new GetObjectCommand({
            Bucket: this.opts.bucket,
            Key,
            ...(filename ? { ResponseContentDisposition: contentDisposition(filename) } : {}),
          });
    // The Content-Type is signed: the one PUT must carry the type given at creation. A stated
    // length is signed too, so the store itself refuses a body of any other size.
    const signed = [
      ...(contentType ? ['content-type'] : []),
      ...(contentLength !== undefined ? ['content-length'] : []),
    ];
    return getSignedUrl(this.presigner, command, {
      expiresIn,
      ...(signed.length ? { signableHeaders: new Set(signed) } : {}),
    });
  }
}

/** An object key as CopySource wants it: each segment URL-encoded, the slashes kept. */
function encodedKey(key: string): string {
  return encodeURIComponent(key).replaceAll('%2F', '/');
}
