import type { ImageDemuxer } from './input';
import type { Recipe } from './recipe';
import type { MediaInfo } from './types';

/** What a render is planned from, and the error a plan refuses an impossible one with. */

/** A background for compositions, already fetched and probed by the caller. */
export type BackgroundInput =
  | { kind: 'image'; file: string; demuxer: ImageDemuxer; width: number; height: number }
  | { kind: 'video'; file: string; info: MediaInfo };

/** The original and its mask, as every render of one job reads them. */
export interface RenderSource {
  info: MediaInfo;
  source: string;
  /**
   * The matte: an FFV1 greyscale file (the server's mask versions), or null when the source's own
   * alpha channel is the matte (the studio's cut-out, VP9 with alpha, which ffmpeg.wasm renders in
   * the browser from the same plans).
   */
  mask: string | null;
  /** The frame-pixel cap the source and a background video were probed under. */
  maxPixels: number;
  /** Frames in the mask = frames of the normalized source. */
  maskFrames: number;
  /**
   * The colour arrives on ffmpeg's stdin instead, as raw `PIPED_FORMAT` frames already on the
   * timeline with the matte as their alpha (lib/media/foreground.ts estimates the soft edges'
   * colour on the way); `source` still gives the sound.
   */
  piped?: boolean;
  /**
   * Whose ffmpeg runs the plan (native unless said): ffmpeg.wasm lacks some encoders
   * (engine/formats/sticker.ts).
   */
  runner?: FfmpegRunner;
}

export type FfmpegRunner = 'native' | 'wasm';

export interface RenderPlanInput extends RenderSource {
  recipe: Recipe;
  background?: BackgroundInput;
  /** The final file (for bundles: the ZIP). */
  output: string;
  /** A private scratch folder for intermediates (palettes, bundle members, PNG frames). */
  workDir: string;
}

export class RenderPlanError extends Error {
  override name = 'RenderPlanError';
}
