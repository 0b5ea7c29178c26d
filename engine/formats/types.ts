import type { OutputGeometry } from '../media/geometry';
import type { OutputFile } from '../media/output-metadata';
import type { MediaInfo } from '../media/types';
import type { LottiePreset, X264Preset } from './codecs';
import type { StickerPolicy } from './sticker-policy';

/**
 * One output format: what its file is, the rules it follows and how it is encoded. Each format
 * is one module in this folder and one line in index.ts; the request schemas, the OpenAPI
 * enums, the dashboard, the CLI, the renderer and validation all derive from these fields.
 */
export interface OutputFormat<Id extends string = string> extends OutputFile {
  id: Id;
  /**
   * `transparent`: asked for by name (`transparent_format`, `exports`, `batch-exports`);
   * `sticker`: a versioned chat-app sticker, asked for by name in exports (not as the start's
   * `transparent_format`); `opaque`: the container of a colour, composition or blur output
   * (`export_format`).
   */
  family: 'transparent' | 'opaque' | 'sticker';
  /** How the dashboard names it. */
  label: string;
  /** The matte is stored inverted (255 = background). */
  inverted: boolean;
  /** Whether the source's audio is carried (when it has any). */
  keepsAudio: boolean;
  /** The pixel format colour is merged and composited in before the format's own conversion. */
  workingFormat: 'yuv420p' | 'yuv444p';
  /**
   * Export `sizes` must be `native`: the layout cannot be resized (spec, start `exports` rule 4).
   */
  nativeOnly: boolean;
  /**
   * The studio makes it in the browser from its cut-out (ffmpeg.wasm running this module's
   * arguments; WebCodecs where ffmpeg.wasm lacks the encoder). The cut-out itself is the
   * studio's WebM; the opaque videos it composites during the run.
   */
  studio: boolean;
  /**
   * The status record echoes it as `background.transparent_format`: the classic values strict
   * SDKs validate. Other formats are reported through `output_format` only.
   */
  classicStatus: boolean;
  /** The CLI picks this format for an output name with its extension (one per extension). */
  cliDefault: boolean;
  /**
   * Other names clients ask for it by (an opaque container's `export_format`: the n8n templates
   * send `h264`).
   */
  aliases?: readonly string[];
  /** The longest source it takes, in seconds (refused at start beyond it). */
  maxSeconds?: number;
  /** A capability of the host it needs (detected at run time, lib/media/capabilities.ts). */
  requires?: 'hevc-alpha';
  /** GIF frame delays are whole centiseconds: the frame rate is snapped to one that fits. */
  snapToGifRate?: boolean;
  /** Sticker formats: the platform's canvas, loop length, byte budget and attempt ladder. */
  sticker?: StickerPolicy;
  encoding: FormatEncoding;
}

/**
 * How a format is encoded from the picture the render plan prepared (`[t]`: the merged and
 * transformed picture for transparent formats, the composite for opaque ones).
 * - `branch`: one ffmpeg output; several of them can share one decode (batch exports). With a
 *   `finish`, the branch writes an intermediate file that a last step turns into the output.
 * - `steps`: anything else (several passes, several files, a ZIP).
 */
export type FormatEncoding =
  | { kind: 'branch'; branch: (c: EncodeContext) => EncodeBranch; finish?: FinishKind }
  | { kind: 'steps'; steps: (c: StepsContext) => EncodeSteps };

/**
 * What turns a branch's intermediate into the output:
 * - `sticker`: the adaptive encoder (engine/media/sticker-plan.ts) tries the format's attempt
 *   ladder from the intermediate (the sticker's master) until a file fits the byte budget;
 * - `hevc-alpha`: HEVC with an alpha layer, encoded in-process by FFmpeg 8 (node-av), since
 *   the system ffmpeg may not have x265 4.
 */
export type FinishKind = 'sticker' | 'hevc-alpha';

export interface EncodeContext {
  /** Whether the output carries audio (the format keeps audio and some is there). */
  audio: boolean;
  /** Opaque outputs: the constant rate factor asked for, if any. */
  crf?: number;
  /** Opaque H.264 outputs: the x264 speed preset asked for, if any. */
  preset?: X264Preset;
  /** Lottie outputs: `lottie_options`, if given. */
  lottie?: LottieOptions;
}

/** `lottie_options`, resolved: the three fields of `options`, applied to the Lottie file. */
export interface LottieOptions {
  preset: LottiePreset;
  /** Hold a frame that barely changes instead of embedding it again. */
  smartSampling: boolean;
  /** null: soft alpha; 0..1: alpha at or above it is opaque, the rest transparent. */
  threshold: number | null;
}

/** What assembles a Lottie JSON from the frames its steps wrote (lib/media/lottie.ts). */
export interface LottiePlan {
  /** Frame images named by their frame index (`frame_000000.webp`, …); a held frame has none. */
  directory: string;
  image: 'webp' | 'png';
  width: number;
  height: number;
  fps: number;
  frames: number;
}

export interface EncodeBranch {
  /** Filters from the picture to the encoder's input: `tail('t', 'v')` reads [t] and writes [v]. */
  tail: (input: string, output: string) => string[];
  /** Encoder and muxer arguments (the output file follows them). */
  encoder: string[];
}

export interface StepsContext extends EncodeContext {
  /** ffmpeg input arguments (source, mask and any background). */
  inputs: string[];
  /** The filter graph up to the picture label `t` (and `[aout]` when audio is carried). */
  graph: string[];
  /** The audio output label, when the output carries audio. */
  audioLabel: string | null;
  output: string;
  /** A private scratch folder for intermediates (palettes, bundle members, PNG frames). */
  workDir: string;
  info: MediaInfo;
  geometry: OutputGeometry;
  /** `-map_metadata -1 -map_chapters -1`: nothing of the source's metadata leaks into outputs. */
  outputArgs: string[];
}

export interface ZipPlan {
  files: { file: string; name: string }[];
  /** A folder whose files are all added at the ZIP root, in name order. */
  directory?: string;
  manifest?: { name: string; json: unknown };
}

export interface EncodeSteps {
  /** ffmpeg argument lists (without the binary and its global flags), run in order. */
  steps: string[][];
  zip?: ZipPlan;
  /** Bundle members, for validation. */
  members?: { color: string; alpha: string; audio: string | null };
  lottie?: LottiePlan;
}
