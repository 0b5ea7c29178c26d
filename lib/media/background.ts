import fs from 'node:fs/promises';
import type { BackgroundInput, ImageDemuxer } from '../../engine/media/render-plan';
import { env } from '../env';
import { ffprobe, MediaError } from './ffmpeg';
import { probeVideo } from './probe';

/**
 * Recognises a still image by its magic bytes, so the matching single-image demuxer can be forced.
 */
export function sniffImage(head: Uint8Array): ImageDemuxer | null {
  const at = (i: number, bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png_pipe';
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg_pipe';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'webp_pipe';
  return null;
}

/**
 * Looks at an (untrusted, already downloaded) composition background: an image read through a
 * forced single-image demuxer, or a video through the same guarded probe as uploads.
 */
export async function probeBackground(
  file: string,
  signal?: AbortSignal,
): Promise<BackgroundInput> {
  const demuxer = sniffImage(await fileHead(file));
  if (!demuxer) {
    try {
      return { kind: 'video', file, info: await probeVideo(file, { signal }) };
    } catch (e) {
      if (e instanceof MediaError) throw new MediaError(`Background: ${e.message}`);
      throw e;
    }
  }
  const size = await imageSize(file, demuxer, signal).catch((e: unknown) => {
    throw e instanceof MediaError ? new MediaError(`The background image ${e.message}`) : e;
  });
  return { kind: 'image', file, demuxer, ...size };
}

/** Reads the first bytes of a file. */
export async function fileHead(file: string): Promise<Uint8Array> {
  const handle = await fs.open(file, 'r');
  const head = new Uint8Array(16);
  try {
    await handle.read(head, 0, 16, 0);
  } finally {
    await handle.close();
  }
  return head;
}

/**
 * The size of an (untrusted) still read through its forced single-image demuxer, within the
 * frame-pixel cap: a local file, or an object of the store at a short presigned URL (a still
 * PUT straight into S3). The MediaError's message continues "The … image …".
 */
export async function imageSize(
  source: string | { url: string },
  demuxer: ImageDemuxer,
  signal?: AbortSignal,
): Promise<{ width: number; height: number }> {
  const remote = typeof source !== 'string';
  let size: { width?: number; height?: number } | undefined;
  try {
    const { stdout } = await ffprobe(
      [
        '-v',
        'error',
        '-f',
        demuxer,
        '-protocol_whitelist',
        remote ? 'http,https,tcp,tls' : 'file',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=width,height',
        '-of',
        'json',
        remote ? source.url : source,
      ],
      { timeoutMs: 30_000, signal },
    );
    size = (JSON.parse(stdout.toString()) as { streams?: { width?: number; height?: number }[] })
      .streams?.[0];
  } catch {
    size = undefined;
  }
  if (!size?.width || !size.height)
    throw new MediaError('cannot be read: PNG, JPEG or WebP expected.');
  if (size.width * size.height > env().MAX_FRAME_PIXELS) {
    throw new MediaError(
      `is ${size.width}x${size.height}; the limit is ${env().MAX_FRAME_PIXELS} pixels.`,
    );
  }
  return { width: size.width, height: size.height };
}
