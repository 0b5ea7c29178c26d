import type { MediaInfo } from './types';
import { ALLOWED_DEMUXERS } from './types';

/**
 * ffmpeg input arguments for an untrusted file that has already been probed: the demuxer is
 * forced (a playlist or concat list named .mp4 cannot be re-interpreted) and only the file
 * protocol is allowed. The decoder refuses frames above `maxPixels` (MAX_FRAME_PIXELS): the
 * probe checks the header, but a stream may switch to 8192x8192 after a small first frame.
 * The cap is required, so no reader of a user's file can leave it out.
 * The filter graph is not rebuilt when frames change size mid-stream (`normalizeFilters` scales
 * them first); rebuilt, it would restart the timeline at the change. Pure, so the browser and
 * tests share it.
 */
export function safeInputArgs(
  info: Pick<MediaInfo, 'demuxer'>,
  file: string,
  maxPixels: number,
): string[] {
  return [
    '-f',
    info.demuxer,
    ...guardArgs(),
    '-max_pixels',
    String(maxPixels),
    '-reinit_filter',
    '0',
    '-i',
    file,
  ];
}

/**
 * Guards for a first look at an unknown file: only real containers, only local files. `http`
 * is for the one remote read there is: the web process probing the headers of an upload that
 * a client PUT straight into S3, through a short presigned URL of our own store. The allowed
 * demuxers open nothing but their own input (mov's external references stay off), so no
 * further URL can be reached from inside the file.
 */
export function guardArgs(source: 'file' | 'http' = 'file'): string[] {
  return [
    '-protocol_whitelist',
    source === 'file' ? 'file' : 'http,https,tcp,tls',
    '-format_whitelist',
    ALLOWED_DEMUXERS.join(','),
  ];
}

/** Single-image demuxers: each reads exactly one picture from the file, nothing else. */
export type ImageDemuxer = 'png_pipe' | 'jpeg_pipe' | 'webp_pipe';

/** ffmpeg input arguments for one picture (a background image, a GIF palette). */
export function safeImageInputArgs(demuxer: ImageDemuxer, file: string): string[] {
  return ['-f', demuxer, '-protocol_whitelist', 'file', '-i', file];
}
