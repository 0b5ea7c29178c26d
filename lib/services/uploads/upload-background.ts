import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ImageDemuxer } from '../../../engine/media/render-plan';
import { jobNotFound, ServiceError } from '../../errors';
import { probeBackground, sniffImage } from '../../media/background';
import { MediaError } from '../../media/ffmpeg';
import { storageKeys } from '../../storage';
import { BACKGROUND_EXTENSIONS, type BackgroundExtension } from '../../storage/keys';
import { drainRefused, tooLarge, writeLimited } from '../../storage/limited-write';
import { incomingFile } from '../../storage/incoming';
import type { Ports } from '../ports';

/** A background image is a still; 20 MB is far more than any sensible PNG/JPEG/WebP of a frame. */
export const MAX_BACKGROUND_BYTES = 20 * 1024 * 1024;

export const NOT_AN_IMAGE = 'The background must be a single PNG, JPEG or WebP image.';

const EXTENSION: Record<ImageDemuxer, BackgroundExtension> = {
  png_pipe: 'png',
  jpeg_pipe: 'jpg',
  webp_pipe: 'webp',
};

async function readHead(file: string): Promise<Uint8Array> {
  const fh = await fs.open(file, 'r');
  try {
    const head = new Uint8Array(16);
    await fh.read(head, 0, 16, 0);
    return head;
  } finally {
    await fh.close();
  }
}

/**
 * A composition background uploaded from the dashboard for one of the user's own jobs that has
 * not been started: streamed to disk under a 20 MB cap, recognised by its bytes and read by
 * ffprobe as one still image, then stored as `jobs/<id>/background.<ext>` (deleted with the
 * job). The start then names the returned key instead of a URL, and the render reads it
 * through storage.
 */
export async function uploadBackground(
  ports: Ports,
  userId: string,
  jobId: string,
  body: Readable,
  opts: { contentLength?: number } = {},
): Promise<{ key: string; width: number; height: number }> {
  const job = await ports.db.job.findFirst({
    where: { id: jobId, userId },
    select: { status: true },
  });
  if (!job) throw jobNotFound();
  if (job.status !== 'created' && job.status !== 'uploaded') {
    throw new ServiceError(
      'conflict',
      'The job has already been started; its background cannot be changed',
    );
  }
  if (opts.contentLength !== undefined && opts.contentLength > MAX_BACKGROUND_BYTES) {
    await drainRefused(body, opts.contentLength, MAX_BACKGROUND_BYTES);
    throw tooLarge(MAX_BACKGROUND_BYTES, opts.contentLength);
  }
  const file = await incomingFile(jobId);
  try {
    const bytes = await writeLimited(body, file, MAX_BACKGROUND_BYTES);
    if (bytes === 0) throw new ServiceError('invalid', 'The background image is empty');
    const demuxer = sniffImage(await readHead(file));
    if (!demuxer) throw new ServiceError('invalid', NOT_AN_IMAGE);
    const probed = await probeBackground(file).catch((e: unknown) => {
      throw e instanceof MediaError ? new ServiceError('invalid', NOT_AN_IMAGE, e.message) : e;
    });
    if (probed.kind !== 'image') throw new ServiceError('invalid', NOT_AN_IMAGE);
    const ext = EXTENSION[demuxer];
    const key = storageKeys.background(jobId, ext);
    await ports.storage.putFile(key, file, { move: true });
    // A new upload replaces the one before it, whatever its type.
    for (const other of BACKGROUND_EXTENSIONS)
      if (other !== ext) await ports.storage.delete(storageKeys.background(jobId, other));
    return { key, width: probed.width, height: probed.height };
  } finally {
    await fs.rm(file, { force: true });
  }
}
