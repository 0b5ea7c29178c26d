import type { MediaInfo } from './types';
import { ALLOWED_DEMUXERS } from './types';

/**
 * ffmpeg input arguments for an untrusted file that has already been probed: the demuxer is
 * forced (a playlist or concat list named .mp4 cannot be re-interpreted) and only the file
 * protocol is allowed. Pure, so the browser and tests share it.
 */
export function safeInputArgs(info: Pick<MediaInfo, 'demuxer'>, file: string): string[] {
  return ['-f', info.demuxer, ...guardArgs(), '-i', file];
}

/** Guards for a first look at an unknown file: only real containers, only local files. */
export function guardArgs(): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', ALLOWED_DEMUXERS.join(',')];
}
