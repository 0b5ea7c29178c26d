import path from 'node:path';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { env } from '../../env';
import { FetchError, safeFetchToFile, UnsafeUrlError } from '../../net/safe-fetch';
import {
  echoOf,
  stillOptions,
  type ImageToVideoOptions,
  type ImageToVideoRequest,
  type StillOptions,
} from '../../schemas/image-to-video';
import type { CreateJobRequest, JobReceipt, UploadedJob } from '../../schemas/jobs';
import { storageKeys } from '../../storage';
import { ServiceError } from '../../errors';
import { incomingFile } from '../../storage/incoming';
import { tooLarge } from '../../storage/limited-write';
import { acceptSource, acceptStill, uploadSource } from '../uploads/upload-source';
import { stillColumn } from '../uploads/columns';
import { undoJobCreation } from './discard-job';
import type { Ports } from '../ports';

const UPLOAD_URL_SECONDS = 3600;

/** A display name: the last path segment, without control characters, never empty. */
export function cleanFilename(name: string | null | undefined, fallback = 'video.mp4'): string {
  const base = path.posix
    .basename((name ?? '').replaceAll('\\', '/'))
    .replace(/\p{Cc}/gu, '')
    .trim();
  return base.slice(0, 255) || fallback;
}

function filenameFromUrl(url: string): string {
  try {
    return cleanFilename(decodeURIComponent(new URL(url).pathname));
  } catch {
    return 'video.mp4';
  }
}

type Receipt = z.infer<typeof JobReceipt>;
type Uploaded = z.infer<typeof UploadedJob>;

/**
 * Creates a job. With filename + content_type: a receipt with a signed PUT URL (1 h). With
 * video_url: the server downloads it now (address rules, size cap), probes it, and the job is
 * already `uploaded`.
 */
export async function createJob(
  ports: Ports,
  userId: string,
  req: CreateJobRequest,
): Promise<Receipt | Uploaded> {
  if (req.video_url) return createJobFromUrl(ports, userId, req.video_url, req.filename);
  if (!req.filename || !req.content_type)
    throw new ServiceError(
      'invalid',
      'One of (filename with content_type) or video_url is required',
    );
  const length = req.content_length ?? undefined;
  if (length !== undefined && length > env().MAX_UPLOAD_BYTES)
    throw tooLarge(env().MAX_UPLOAD_BYTES, length);
  return receiptFor(
    ports,
    await ports.db.job.create({
      data: { userId, filename: cleanFilename(req.filename), contentType: req.content_type },
    }),
    length,
  );
}

/**
 * A job waiting for its file: the signed PUT URL (1 h) and how to use it. A stated length is
 * signed into the URL: S3 then refuses a body of any other size, so nothing over the limit
 * reaches the bucket (the embedded upload route counts the bytes as they arrive either way).
 */
async function receiptFor(
  ports: Ports,
  job: { id: string; filename: string; contentType: string; createdAt: Date },
  contentLength?: number,
): Promise<Receipt> {
  const expiresAt = new Date(Date.now() + UPLOAD_URL_SECONDS * 1000);
  const target = storageKeys.uploadTarget(job.id);
  return {
    id: job.id,
    status: 'created',
    filename: job.filename,
    content_type: job.contentType,
    upload_url: await ports.storage.signedUrl(target, {
      method: 'PUT',
      expiresIn: UPLOAD_URL_SECONDS,
      contentType: job.contentType,
      contentLength,
    }),
    expires_at: expiresAt.toISOString(),
    created_at: job.createdAt.toISOString(),
    instructions: {
      method: 'PUT',
      headers: {
        'Content-Type': job.contentType,
        ...(contentLength !== undefined ? { 'Content-Length': String(contentLength) } : {}),
      },
      note:
        'Upload the whole ' +
        `${job.contentType.startsWith('image/') ? 'image' : 'video'} in ` +
        'one PUT request to upload_url with this Content-Type before ' +
        'expires_at (no API key needed; at most ' +
        `${env().MAX_UPLOAD_BYTES} bytes), then call POST ` +
        `/v1/jobs/${job.id}/start.`,
    },
  };
}

async function uploadedView(ports: Ports, jobId: string): Promise<Uploaded> {
  const job = await ports.db.job.findUniqueOrThrow({ where: { id: jobId } });
  return {
    id: job.id,
    status: 'uploaded',
    filename: job.filename,
    content_type: job.contentType,
    video_url: job.sourceUrl,
    length_seconds: job.lengthSeconds,
    created_at: job.createdAt.toISOString(),
  };
}

/** Runs `fill` for a fresh job row; a failure removes the job again so no orphan is left. */
async function withNewJob(
  ports: Ports,
  data: {
    userId: string;
    filename: string;
    contentType: string;
    sourceUrl?: string;
    stillJson?: string;
  },
  fill: (jobId: string) => Promise<void>,
): Promise<Uploaded> {
  const job = await ports.db.job.create({ data });
  try {
    await fill(job.id);
  } catch (e) {
    await undoJobCreation(ports, job.id);
    throw e;
  }
  return uploadedView(ports, job.id);
}

/** The content type a fetched source is recorded with when its server names none. */
const FALLBACK_TYPE = { video_url: 'video/mp4', image_url: 'image/png' } as const;

/**
 * Downloads `url` (address rules, size cap) into the job's incoming file and records the
 * content type the server gave it on the job.
 */
async function fetchSource(
  ports: Ports,
  jobId: string,
  url: string,
  what: 'video_url' | 'image_url',
): Promise<{ file: string; bytes: number }> {
  const file = await incomingFile(jobId);
  const { bytes, contentType } = await safeFetchToFile(url, file, {
    maxBytes: env().MAX_UPLOAD_BYTES,
    timeoutMs: 10 * 60_000,
  }).catch((e: unknown) => {
    if (e instanceof UnsafeUrlError)
      throw new ServiceError('invalid', `${what} is not allowed: ${e.message}`, e.message);
    if (e instanceof FetchError) {
      const tooBig = /larger than the limit/i.test(e.message);
      const thing = what === 'video_url' ? 'video' : 'image';
      throw new ServiceError(
        tooBig ? 'too_large' : 'invalid',
        tooBig ? 'File too large' : `The ${thing} could not be downloaded from ${what}`,
        e.message,
      );
    }
    throw e;
  });
  await ports.db.job.update({
    where: { id: jobId },
    data: { contentType: contentType?.split(';')[0]?.trim() || FALLBACK_TYPE[what] },
  });
  return { file, bytes };
}

async function createJobFromUrl(
  ports: Ports,
  userId: string,
  url: string,
  filename: string | null | undefined,
): Promise<Uploaded> {
  return withNewJob(
    ports,
    {
      userId,
      filename: cleanFilename(filename, filenameFromUrl(url)),
      contentType: '',
      sourceUrl: url,
    },
    async (jobId) => {
      const fetched = await fetchSource(ports, jobId, url, 'video_url');
      await acceptSource(ports, jobId, fetched.file, fetched.bytes);
    },
  );
}

/** The multipart variant: the form's `file` is streamed straight into the job's source. */
export async function createJobWithFile(
  ports: Ports,
  userId: string,
  file: { filename: string; contentType: string; body: Readable },
): Promise<Uploaded> {
  return withNewJob(
    ports,
    {
      userId,
      filename: cleanFilename(file.filename),
      contentType: file.contentType || 'application/octet-stream',
    },
    async (jobId) => {
      await uploadSource(ports, jobId, () => file.body);
    },
  );
}

// ── image-to-video (POST /v1/h3/image-to-video) ────────────────────────────────────────────

type StillReceipt = Receipt & { image_to_video: ReturnType<typeof echoOf> };
type StillUploaded = Uploaded & { image_to_video: ReturnType<typeof echoOf> };

/**
 * Creates an image-to-video job: the same lifecycle as a video job (PUT or fetch, start,
 * status, exports), its options stored with it. With filename + content_type: a receipt with a
 * signed PUT URL for the image; with image_url: fetched now through the SSRF guard.
 */
export async function createStillJob(
  ports: Ports,
  userId: string,
  req: ImageToVideoRequest,
): Promise<StillReceipt | StillUploaded> {
  const options = stillOptions(req);
  const echo = { image_to_video: echoOf(options) };
  if (req.image_url) {
    const url = req.image_url;
    const job = await withNewJob(
      ports,
      {
        userId,
        filename: cleanFilename(req.filename, cleanFilename(filenameFromUrl(url), 'image')),
        contentType: '',
        sourceUrl: url,
        stillJson: stillColumn.write(options),
      },
      async (jobId) => {
        const fetched = await fetchSource(ports, jobId, url, 'image_url');
        await acceptStill(ports, jobId, fetched.file, fetched.bytes);
      },
    );
    return { ...job, ...echo };
  }
  if (!req.filename || !req.content_type)
    throw new ServiceError(
      'invalid',
      'One of (filename with content_type) or image_url is required',
    );
  const job = await ports.db.job.create({
    data: {
      userId,
      filename: cleanFilename(req.filename, 'image'),
      contentType: req.content_type,
      stillJson: stillColumn.write(options),
    },
  });
  return { ...(await receiptFor(ports, job)), ...echo };
}

/** The multipart variant: the form's `file` is streamed into the job's still. */
export async function createStillJobWithFile(
  ports: Ports,
  userId: string,
  file: { filename: string; contentType: string; body: Readable },
  opts: ImageToVideoOptions,
): Promise<StillUploaded> {
  const options: StillOptions = stillOptions(opts);
  const job = await withNewJob(
    ports,
    {
      userId,
      filename: cleanFilename(file.filename, 'image'),
      contentType: file.contentType || 'application/octet-stream',
      stillJson: stillColumn.write(options),
    },
    async (jobId) => {
      await uploadSource(ports, jobId, () => file.body);
    },
  );
  return { ...job, image_to_video: echoOf(options) };
}
