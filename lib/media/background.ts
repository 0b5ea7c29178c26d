import fs from 'node:fs/promises';
import type { BackgroundInput, ImageDemuxer } from '../../engine/media/render-plan';
import { env } from '../env';
import { ffprobe, MediaError } from './ffmpeg';
import { probeVideo } from './probe';

const NOT_A_BACKGROUND =
  'The background must be an image (PNG, JPEG, WebP) or a supported video (MP4, MOV, M4V, WebM, MKV, AVI).';

/** Recognises a still image by its magic bytes, so the matching single-image demuxer can be forced. */
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
export async function probeBackground(file: string, signal?: AbortSignal): Promise<BackgroundInput> {
  const handle = await fs.open(file, 'r');
  const head = new Uint8Array(16);
  try {
    await handle.read(head, 0, 16, 0);
  } finally {
    await handle.close();
  }
  const demuxer = sniffImage(head);
  if (!demuxer) {
    try {
      return { kind: 'video', file, info: await probeVideo(file, { signal }) };
    } catch (e) {
      if (e instanceof MediaError) throw new MediaError(`Background: ${e.message}`);
      throw e;
    }
  }
  let size: { width?: number; height?: number } | undefined;
  try {
    const { stdout } = await ffprobe(
      ['-v', 'error', '-f', demuxer, '-protocol_whitelist', 'file', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'json', file],
      { timeoutMs: 30_000, signal },
    );
    size = (JSON.parse(stdout.toString()) as { streams?: { width?: number; height?: number }[] }).streams?.[0];
  } catch {
    throw new MediaError(NOT_A_BACKGROUND);
  }
  if (!size?.width || !size.height) throw new MediaError(NOT_A_BACKGROUND);
  if (size.width * size.height > env().MAX_FRAME_PIXELS) {
    throw new MediaError(`The background image is ${size.width}x${size.height}; the limit is ${env().MAX_FRAME_PIXELS} pixels.`);
  }
  return { kind: 'image', file, demuxer, width: size.width, height: size.height };
}
