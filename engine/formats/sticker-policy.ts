import type { OutputFile } from '../media/output-metadata';

/**
 * What a chat-app sticker policy is and the limits every policy shares. A leaf: the geometry
 * (engine/media/geometry.ts) and the format types read it without importing the sticker codecs.
 */

/** One setting of a codec's quality knobs, e.g. `{ crf: 40 }` or `{ colours: 128 }`. */
export type StickerQuality = Readonly<Record<string, number>>;

/** Where one attempt reads its master and writes its file. */
export interface AttemptIO {
  /** ffmpeg input arguments of the master (forced demuxer, file protocol only). */
  input: string[];
  output: string;
  /** A private folder for palettes and raw frames. */
  workDir: string;
  width: number;
  height: number;
  /** Frames to write (the loop length at this rate, rounded down so the cap holds). */
  frames: number;
  fpsRational: string;
  /** `-map_metadata -1 …`: nothing of the source's metadata leaks into the file. */
  outputArgs: string[];
  /** The policy's byte budget (a browser VP9 attempt aims at a share of it). */
  budgetBytes: number;
}

/**
 * An attempt's last step, run in JavaScript over the raw RGBA frames its ffmpeg step wrote:
 * - `apng-palette`: one palette with partial alpha, written by upng-js
 *   (engine/media/apng-palette.ts), since ffmpeg 5.1's palettes keep binary alpha only;
 * - `vp9-alpha`: VP9 with alpha through WebCodecs (mediabunny), where ffmpeg.wasm's libvpx
 *   encoder crashes (the browser only), at `bitrate` bits per second for each of the colour and
 *   the alpha stream.
 */
export interface FramesJob {
  rawFrames: string;
  width: number;
  height: number;
  frames: number;
  fpsRational: string;
  output: string;
  encode: { kind: 'apng-palette'; colours: number } | { kind: 'vp9-alpha'; bitrate: number };
}

export interface AttemptEncode {
  /** ffmpeg argument lists, run in order. */
  steps: string[][];
  frames?: FramesJob;
}

/** A codec stickers are encoded with: its file, the checks it passes, how one attempt runs. */
export interface StickerCodec extends OutputFile {
  /**
   * Quality steps, best first; the last is the quality floor (one ladder a codec, whatever the
   * platform).
   */
  quality: readonly StickerQuality[];
  /** Frame rates tried at the quality floor, falling; the last is the floor (never below 12). */
  fpsSteps: readonly number[];
  /** GIF: frame delays are whole centiseconds, so frame rates are 100/n. */
  gifRates: boolean;
  /** How the knobs of one quality step read in metadata and errors, e.g. "crf 40". */
  describe: (q: StickerQuality) => string;
  encode: (q: StickerQuality, io: AttemptIO) => AttemptEncode;
  /** The same attempt in the browser, where ffmpeg.wasm lacks the encoder `encode` runs (VP9). */
  encodeInBrowser?: (q: StickerQuality, io: AttemptIO) => AttemptEncode;
}

export interface StickerPolicy {
  /** The policy's name without its version (`telegram_video`); the format id adds `_v<version>`. */
  policy: string;
  version: number;
  /** Who takes the file, as people name it. */
  platform: string;
  canvas: { width: number; height: number };
  /** The longest loop, in seconds: a longer source is sped up so the whole loop fits. */
  maxSeconds: number;
  /**
   * `platform`: the platform's own rule; `keyout`: the platform states none, this is Keyout's
   * choice.
   */
  capSource: 'platform' | 'keyout';
  limitBytes: number;
  /** The limit as the platform states it ("256 KiB", "500 KB"). */
  limitLabel: string;
  /** 90 % of the limit: files that land a little over after re-muxing by the app still pass. */
  budgetBytes: number;
  codec: StickerCodec;
  /** Quality steps, best first; the last is the quality floor. */
  quality: readonly StickerQuality[];
  /** Frame rates tried at the quality floor, falling; the last is the floor (never below 12). */
  fpsSteps: readonly number[];
}

/** Frame rates a sticker may have (spec: a frame-rate override must be 12 to 30). */
export const STICKER_MIN_FPS = 12;
export const STICKER_MAX_FPS = 30;
/** Inputs up to 30 s are accepted (spec, "Sticker input duration"). */
export const STICKER_MAX_INPUT_SECONDS = 30;
