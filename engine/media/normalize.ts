import type { MediaInfo } from './types';

/**
 * Filters that put any source on the timeline every stage shares: timestamps from zero and a
 * constant frame rate. The segmenter decodes through these and writes one mask frame per
 * output frame; encoders apply the same filters to the source before merging the mask, so
 * colour and mask frames pair exactly, variable-frame-rate phone videos included.
 * (ffmpeg applies the display rotation itself when decoding.)
 */
export function normalizeFilters(info: Pick<MediaInfo, 'fpsRational'>): string[] {
  return ['setpts=PTS-STARTPTS', `fps=${info.fpsRational}`];
}
