import { parseRational } from './geometry';
import type { MediaInfo } from './types';

/**
 * Filters that put any source on the timeline every stage shares: frames at the probed display
 * size (a stream may change size mid-way), timestamps from zero, a constant frame rate, and no
 * more frames than the probed duration allows (`frameLimit`). The segmenter decodes through
 * these and writes one mask frame per output frame; encoders apply the same filters to the
 * source before merging the mask, so colour and mask frames pair exactly, variable-frame-rate
 * phone videos included. (ffmpeg applies the display rotation itself when decoding.)
 */
export function normalizeFilters(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational' | 'duration'>,
): string[] {
  return [...startFilters(info), `fps=${info.fpsRational}`, `trim=end_frame=${frameLimit(info)}`];
}

/**
 * The first part of `normalizeFilters`: frames at the probed size, timestamps from zero. A
 * looped background video takes these and then the foreground's rate (it has no end to trim).
 */
export function startFilters(info: Pick<MediaInfo, 'width' | 'height'>): string[] {
  return [`scale=${info.width}:${info.height}`, 'setpts=PTS-STARTPTS'];
}

/**
 * The most frames a source may yield: its probed duration plus one second. Durations, caps and
 * prices come from the header, but the frames need not agree: one timestamp hours ahead makes
 * `fps` repeat the last frame until then (a 14 KB file that claims 2 s kept a worker busy for
 * hours). ffmpeg stops decoding once `trim` has passed its last frame.
 */
export function frameLimit(info: Pick<MediaInfo, 'fpsRational' | 'duration'>): number {
  return Math.ceil((info.duration + 1) * parseRational(info.fpsRational));
}
