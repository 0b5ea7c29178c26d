import {
  containerNamed,
  DEFAULT_FORMAT,
  DEFAULT_LOTTIE_OPTIONS,
  outputFormat,
  type ExportFormat as ExportFormatId,
  type LottieOptions,
  type X264Preset,
} from '../../../engine/formats';
import {
  formatIdOf,
  type Recipe,
  type Transform as RecipeTransform,
} from '../../../engine/media/recipe';
import {
  MAX_UNIQUE_OUTPUTS,
  type Background,
  type ExportItem,
  type Transform,
} from '../../schemas/background';
import { userMessage } from '../../schemas/messages';
import { z } from '../../schemas/zod';

/**
 * A start request's background and exports, and a batch's exports, mapped onto the engine
 * Recipes their outputs render by, and back onto the status record's classic `background`.
 */

export interface PlannedOutput<F extends string = string> {
  format: F;
  transform: RecipeTransform | undefined;
}

/** An export's recipe: its transparent or sticker format and transform, on the job's mask. */
export function exportRecipe({ format, transform }: PlannedOutput<ExportFormatId>): Recipe {
  return { kind: 'transparent', format, ...(transform ? { transform } : {}) };
}

/** A transform without nulls or empty parts, so equal requests compare equal. */
export function cleanTransform(
  t: z.infer<typeof Transform> | null | undefined,
): RecipeTransform | undefined {
  if (!t) return undefined;
  const out: RecipeTransform = {};
  if (t.crop) out.crop = t.crop;
  if (t.max_width != null) out.max_width = t.max_width;
  if (t.fps != null) out.fps = t.fps;
  if (t.reverse) out.reverse = true;
  return Object.keys(out).length ? out : undefined;
}

const outputKey = (o: PlannedOutput) => JSON.stringify([o.format, o.transform ?? null]);

/**
 * One output per export size (`native` keeps the source size, a number is a maximum width),
 * with duplicates and those identical to the primary output removed; more than 50 unique
 * outputs besides the primary is an error (spec: "additional outputs per start: at most 50
 * unique"; a batch, which has no primary, has at most 50). The spec's rules for start's
 * `exports`, also applied to batch-exports.
 */
export function planExports(
  exports: ExportItem[],
  primary?: PlannedOutput,
): PlannedOutput<ExportFormatId>[] {
  const seen = new Map<string, PlannedOutput<ExportFormatId> | null>(
    primary ? [[outputKey(primary), null]] : [],
  );
  for (const item of exports) {
    const base = cleanTransform(item.transform);
    for (const size of item.sizes ?? ['native']) {
      const transform = size === 'native' ? base : { ...base, max_width: size };
      const planned = {
        format: item.format,
        transform: transform && Object.keys(transform).length ? transform : undefined,
      };
      if (!seen.has(outputKey(planned))) seen.set(outputKey(planned), planned);
    }
  }
  const additional = [...seen.values()].filter((p) => p !== null);
  if (additional.length > MAX_UNIQUE_OUTPUTS) {
    throw new z.ZodError([
      {
        code: 'custom',
        path: ['exports'],
        message: userMessage(
          `at most ${MAX_UNIQUE_OUTPUTS} unique outputs are allowed ` +
            `(requested ${additional.length})`,
        ),
        input: exports,
      },
    ]);
  }
  return additional;
}

const exportContainer = (b: Background) => containerNamed(b.composition?.export_format ?? 'mp4');

/**
 * `lottie_options` with the format's defaults for what it leaves unset; undefined when it sets
 * nothing.
 */
function lottieOptions(o: Background['lottie_options']): LottieOptions | undefined {
  if (!o || (o.preset == null && o.smart_sampling == null && o.threshold == null)) return undefined;
  const d = DEFAULT_LOTTIE_OPTIONS;
  return {
    preset: o.preset ?? d.preset,
    smartSampling: o.smart_sampling ?? d.smartSampling,
    threshold: o.threshold ?? d.threshold,
  };
}

/**
 * A composition's or blur's encoder settings (`export_crf`, `export_preset`), without the unset
 * ones.
 */
function encoderSettings(c: Background['composition']): { crf?: number; preset?: X264Preset } {
  return {
    ...(c?.export_crf != null ? { crf: c.export_crf } : {}),
    ...(c?.export_preset ? { preset: c.export_preset } : {}),
  };
}

/**
 * The Recipe of a job's primary output. No background means a transparent VP9 WebM (what the
 * SDKs read as `.webm` = VP9 with alpha). A composition's background is fetched (through the
 * SSRF guard) when the output renders, or, uploaded from the dashboard, read from storage.
 */
export function toRecipe(background: Background | null | undefined): Recipe {
  if (!background) return { kind: 'transparent', format: DEFAULT_FORMAT };
  const transform = cleanTransform(background.transform);
  const withTransform = <R extends Recipe>(r: R): R => (transform ? { ...r, transform } : r);
  switch (background.type) {
    case 'transparent': {
      const format = background.transparent_format ?? DEFAULT_FORMAT;
      const lottie = format === 'lottie' ? lottieOptions(background.lottie_options) : undefined;
      return withTransform({ kind: 'transparent', format, ...(lottie ? { lottie } : {}) });
    }
    case 'color':
      if (!background.color) throw new Error('A colour background needs a colour');
      return withTransform({
        kind: 'color',
        color: background.color,
        exportFormat: exportContainer(background),
      });
    case 'composition': {
      const c = background.composition;
      const source = c?.background_key
        ? { key: c.background_key }
        : c?.background_url
          ? { url: c.background_url }
          : null;
      if (!c || !source)
        throw new Error('A composition needs its background URL or uploaded image');
      return withTransform({
        kind: 'composition',
        background: source,
        template: c.template ?? 'full',
        backgroundAudio: c.background_audio_enabled ?? false,
        backgroundAudioVolume: c.background_audio_volume ?? 1,
        exportFormat: exportContainer(background),
        ...encoderSettings(c),
      });
    }
    case 'blur':
      return withTransform({
        kind: 'blur',
        blur: {
          mode: background.blur_mode ?? 'background',
          intensity: background.blur_intensity ?? 50,
          type: background.blur_type ?? 'gaussian',
        },
        exportFormat: exportContainer(background),
        ...encoderSettings(background.composition),
      });
  }
}

/**
 * The format name recorded as the job's `output_format`: the transparent format, or the container.
 */
export function outputFormatOf(background: Background | null | undefined): string {
  return formatIdOf(toRecipe(background));
}

export interface ClassicBackground {
  type: 'color' | 'transparent';
  color?: string;
  transparent_format?: string;
}

/**
 * The status record's `background`, kept to the classic shape strict clients validate:
 * colour and transparent jobs only, and transparent_format only when the format is one of the
 * classic values (`classicStatus` in engine/formats) the Python SDK can read. Everything else
 * is reported through `output_format`.
 */
export function classicBackground(
  background: Background | null | undefined,
): ClassicBackground | null {
  if (!background) return null;
  if (background.type === 'color' && background.color)
    return { type: 'color', color: background.color };
  if (background.type === 'transparent') {
    const format = background.transparent_format ?? DEFAULT_FORMAT;
    return outputFormat(format).classicStatus
      ? { type: 'transparent', transparent_format: format }
      : { type: 'transparent' };
  }
  return null;
}

/**
 * Whether the output needs the blur render (priced on top of the model, see lib/billing/pricing).
 */
export const usesBlur = (background: Background | null | undefined) => background?.type === 'blur';
