import {
  outputFormat,
  type ExportFormat,
  type LottieOptions,
  type OpaqueContainer,
  type OutputFormat,
  type X264Preset,
} from '../formats';
import type { Transform } from './geometry';

/**
 * What an encode step is asked to make: "original + a mask version + a recipe", never "the job".
 * Built from the API's background options and export requests by lib/services/outputs/recipes.ts,
 * from CLI flags by the CLI, and stored with each Output row.
 */
export type { ExportFormat, OpaqueContainer, StickerFormat, TransparentFormat } from '../formats';
export type { Transform } from './geometry';

export type BlurMode = 'background' | 'subject';
export type BlurType = 'gaussian' | 'box';
export type CompositionTemplate = 'full' | 'centered' | 'ai_ugc_ad';

export interface Blur {
  mode: BlurMode;
  /** 0..100, mapped to a radius relative to the frame size. */
  intensity: number;
  type: BlurType;
}

/**
 * Where a composition's background comes from: a URL (fetched through the SSRF guard when the
 * output renders), a storage key (an image uploaded from the dashboard into the job's folder,
 * read through the Storage port) or, for the CLI only, a local file.
 */
export type BackgroundSource = { url: string } | { key: string } | { file: string };

export type Recipe =
  /** The cut-out with its alpha, in a transparent or a sticker format. */
  | { kind: 'transparent'; format: ExportFormat; transform?: Transform; lottie?: LottieOptions }
  | { kind: 'color'; color: string; exportFormat: OpaqueContainer; transform?: Transform }
  | {
      kind: 'composition';
      background: BackgroundSource;
      template: CompositionTemplate;
      backgroundAudio: boolean;
      /** 0..1 */
      backgroundAudioVolume: number;
      exportFormat: OpaqueContainer;
      crf?: number;
      /** x264's speed preset, for an H.264 MP4. */
      preset?: X264Preset;
      transform?: Transform;
    }
  | {
      kind: 'blur';
      blur: Blur;
      exportFormat: OpaqueContainer;
      crf?: number;
      preset?: X264Preset;
      transform?: Transform;
    };

/** The catalogue entry of the file a recipe makes. */
export function formatOf(recipe: Recipe): OutputFormat {
  return outputFormat(recipe.kind === 'transparent' ? recipe.format : recipe.exportFormat);
}

/**
 * The format name a recipe is reported under (`output_format`): the transparent format, or the
 * container.
 */
export function formatIdOf(recipe: Recipe): ExportFormat | OpaqueContainer {
  return recipe.kind === 'transparent' ? recipe.format : recipe.exportFormat;
}

/** A short name for logs and scratch file names. */
export function recipeLabel(recipe: Recipe): string {
  return recipe.kind === 'transparent' ? recipe.format : `${recipe.kind}_${recipe.exportFormat}`;
}
