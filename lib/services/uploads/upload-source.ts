import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { stillFrame } from '../../../engine/media/still';
import type { MediaInfo } from '../../../engine/media/types';
import { transaction } from '../../db/transaction';
import { env } from '../../env';
import { fileHead, imageSize, sniffImage } from '../../media/background';
import { MediaError, MediaTimeout } from '../../media/ffmpeg';
import { probeVideo } from '../../media/probe';
import type { ImageDemuxer } from '../../../engine/media/input';
import { stillFrames, type StillOptions } from '../../schemas/image-to-video';
import { stillColumn } from './columns';
import { storageKeys } from '../../storage';
import { incomingFile } from '../../storage/incoming';
import { drainRefused, tooLarge, writeLimited } from '../../storage/limited-write';
import { ServiceError } from '../../errors';
import type { Ports } from '../ports';

export const NOT_A_VIDEO =
  'The file is not a supported video. Supported containers: MP4, MOV, M4V, WebM, MKV, AVI.';

/**
 * A MediaError met while checking an upload, as the client's answer: the file's fault (400,
 * with the reason), or a check that ran out of time on a loaded host (503: the file may be fine,
 * so the client is told to try again rather than to fix it).
 */
export function mediaRefusal(e: MediaError, prefix = ''): ServiceError {
  if (e instanceof MediaTimeout) {
    return new ServiceError(
      'busy',
      'The server is too busy to check the upload right now. Upload it again in a minute.',
      `${prefix}${e.message}`,
      60,
    );
  }
  return new ServiceError('invalid', `${prefix}${e.message}`);
}

/** The container family from the first bytes, before ffprobe is asked anything. */
export function sniffContainer(head: Buffer): 'isobmff' | 'matroska' | 'avi' | null {
  if (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'AVI '
  )
    return 'avi';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  const box = head.length >= 8 ? head.toString('latin1', 4, 8) : '';
  if (['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot'].includes(box)) return 'isobmff';
  return null;
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    const { bytesRead } = await fh.read(buf, 0, 16, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

const alreadyStarted = (what: 'video' | 'image') =>
  `The job has already been started; its ${what} cannot be replaced`;

/**
 * Makes the stored object `key` the job's source (a video) or still (image to video) with its
 * facts, in one transaction that checks the job is still `created` or `uploaded`; the object it
 * replaces is removed. An upload that finishes after the job was started is refused (409) and
 * `key` removed: a started job's input and price never change.
 */
async function swapIn(
  ports: Ports,
  jobId: string,
  key: string,
  facts: ReturnType<typeof uploadedFacts> | ReturnType<typeof stillFacts>,
): Promise<void> {
  const field = 'stillKey' in facts ? 'stillKey' : 'sourceKey';
  const swapped = await transaction(ports.db, async (tx) => {
    // The state check is the transaction's first write, so it holds SQLite's write lock: a
    // start committing in between is seen here, and a start after this sees the new upload.
    const { count } = await tx.job.updateMany({
      where: { id: jobId, status: { in: ['created', 'uploaded'] } },
      data: { uploadedAt: new Date() },
    });
    if (count !== 1)
      return {
        accepted: false as const,
        exists: (await tx.job.count({ where: { id: jobId } })) === 1,
      };
    const previous = (
      await tx.job.findUniqueOrThrow({
        where: { id: jobId },
        select: { sourceKey: true, stillKey: true },
      })
    )[field];
    await tx.job.update({ where: { id: jobId }, data: facts });
    return { accepted: true as const, previous };
  });
  if (!swapped.accepted) {
    await ports.storage.delete(key);
    throw swapped.exists
      ? new ServiceError('conflict', alreadyStarted(field === 'stillKey' ? 'image' : 'video'))
      : new ServiceError('not_found', 'Job not found');
  }
  if (swapped.previous && swapped.previous !== key) await ports.storage.delete(swapped.previous);
}

/**
 * Takes a downloaded or uploaded file as the job's source: sniffs and probes it (a non-video
 * fails here, clearly), stores it under a key of its own (`jobs/<id>/source-<upload>.<ext>`)
 * and swaps it in (`swapIn`). Consumes `file` (moved or removed).
 */
export async function acceptSource(
  ports: Ports,
  jobId: string,
  file: string,
  bytes: number,
): Promise<MediaInfo> {
  let info: MediaInfo;
  try {
    if (!sniffContainer(await readHead(file))) throw new ServiceError('invalid', NOT_A_VIDEO);
    info = await probeVideo(file, { metadataOnly: true });
  } catch (e) {
    await fs.rm(file, { force: true });
    throw e instanceof MediaError ? mediaRefusal(e) : e;
  }
  const key = storageKeys.source(jobId, randomUUID().slice(0, 8), info.container);
  await ports.storage.putFile(key, file, { move: true });
  await swapIn(ports, jobId, key, uploadedFacts(key, bytes, info));
  return info;
}

export const NOT_A_STILL = 'The file is not a supported image. Supported: PNG, JPEG, WebP.';

/**
 * An image-to-video job's still: sniffed and read through its forced single-image demuxer
 * (within the pixel cap), stored under a key of its own (`jobs/<id>/still-<upload>.<ext>`) and
 * swapped in like a video (`swapIn`); the job becomes `uploaded` with the clip it will make (its
 * length, rate, frame and size), which is what start prices. Consumes `file`.
 */
export async function acceptStill(
  ports: Ports,
  jobId: string,
  file: string,
  bytes: number,
): Promise<{ duration: number }> {
  let size: { width: number; height: number };
  let demuxer: ImageDemuxer;
  try {
    const sniffed = sniffImage(await fileHead(file));
    if (!sniffed) throw new ServiceError('invalid', NOT_A_STILL);
    demuxer = sniffed;
    size = await imageSize(file, demuxer);
  } catch (e) {
    await fs.rm(file, { force: true });
    throw e instanceof MediaError ? mediaRefusal(e, 'The image ') : e;
  }
  const job = await ports.db.job.findUnique({ where: { id: jobId }, select: { stillJson: true } });
  const options = job && stillColumn.readNullable(job.stillJson);
  if (!options) {
    await fs.rm(file, { force: true });
    throw new ServiceError('not_found', 'Job not found');
  }
  const key = storageKeys.still(jobId, randomUUID().slice(0, 8), stillExtension(demuxer));
  await ports.storage.putFile(key, file, { move: true });
  const facts = stillFacts(key, bytes, size, options);
  await swapIn(ports, jobId, key, facts);
  return { duration: facts.lengthSeconds };
}

/** The still's file extension, from the single-image demuxer that reads it. */
export const stillExtension = (demuxer: ImageDemuxer) => demuxer.replace('_pipe', '');

/**
 * What an image-to-video job records when its still is accepted (here, and for stills PUT
 * straight into S3: direct-upload.ts): the clip it will make, which is what start prices.
 */
export function stillFacts(
  stillKey: string,
  bytes: number,
  size: { width: number; height: number },
  options: StillOptions,
) {
  const frame = stillFrame(size.width, size.height);
  const frames = stillFrames(options);
  return {
    status: 'uploaded',
    stillKey,
    sourceBytes: bytes,
    container: path.extname(stillKey).slice(1),
    lengthSeconds: frames / options.fps,
    fps: options.fps,
    width: frame.width,
    height: frame.height,
    frameCount: frames,
    hasAudio: false,
    uploadedAt: new Date(),
    message: null,
  };
}

/**
 * What a job records when its source is accepted (here, and for uploads straight into S3:
 * direct-upload.ts).
 */
export function uploadedFacts(sourceKey: string, bytes: number, info: MediaInfo) {
  return {
    status: 'uploaded',
    sourceKey,
    sourceBytes: bytes,
    container: info.container,
    lengthSeconds: info.duration,
    fps: info.fps,
    width: info.width,
    height: info.height,
    frameCount: info.frameCount,
    hasAudio: info.hasAudio,
    uploadedAt: new Date(),
    message: null,
  };
}

export interface UploadResult {
  id: string;
  status: 'uploaded';
  bytes: number;
  length_seconds: number;
}

/**
 * The body of a signed upload PUT becomes the job's source. Streamed to disk (never held in
 * memory), capped at MAX_UPLOAD_BYTES, and the job is `uploaded` before this returns, so a
 * client may start it as soon as its PUT is answered. The body is opened only once the upload
 * is accepted: a refusal before that leaves it untouched for the caller to discard.
 */
export async function uploadSource(
  ports: Ports,
  jobId: string,
  openBody: () => Readable,
  opts: { contentLength?: number } = {},
): Promise<UploadResult> {
  const { MAX_UPLOAD_BYTES } = env();
  const job = await ports.db.job.findUnique({
    where: { id: jobId },
    select: { status: true, stillJson: true },
  });
  if (!job) throw new ServiceError('not_found', 'Job not found');
  if (job.status !== 'created' && job.status !== 'uploaded')
    throw new ServiceError('conflict', alreadyStarted(job.stillJson ? 'image' : 'video'));
  if (opts.contentLength !== undefined && opts.contentLength > MAX_UPLOAD_BYTES) {
    await drainRefused(openBody(), opts.contentLength, MAX_UPLOAD_BYTES);
    throw tooLarge(MAX_UPLOAD_BYTES, opts.contentLength);
  }
  const file = await incomingFile(jobId);
  const bytes = await writeLimited(openBody(), file, MAX_UPLOAD_BYTES);
  if (bytes === 0) {
    await fs.rm(file, { force: true });
    throw new ServiceError('invalid', 'The upload is empty');
  }
  // An image-to-video job takes a still; every other job a video.
  const info = job.stillJson
    ? await acceptStill(ports, jobId, file, bytes)
    : await acceptSource(ports, jobId, file, bytes);
  return { id: jobId, status: 'uploaded', bytes, length_seconds: info.duration };
}
