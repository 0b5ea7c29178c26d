import {
  CONTAINER_NAMES,
  EXPORT_FORMATS,
  isStickerFormat,
  isTransparentFormat,
  LOTTIE_PRESETS,
  outputFormat,
  STICKER_MAX_FPS,
  STICKER_MIN_FPS,
  TRANSPARENT_FORMATS,
  X264_PRESETS,
  type ExportFormat as ExportFormatId,
  type LottiePreset,
} from '../../engine/formats';
import { ENGINE_PRESET_NAMES, ENGINE_PRESETS } from '../../engine/presets';
import { userMessage } from './messages';
import { z } from './zod';

/**
 * The `background` options object of a start request (api-v1.md, "Background options object")
 * and the `exports` items (their mapping onto engine Recipes: lib/services/outputs/recipes.ts).
 * Every optional field also accepts an explicit null (the Python SDK sends null for everything
 * it does not set).
 */

export const BAD_COLOUR = userMessage('invalid background colour format (must be a hex colour)');
export const HexColour = z
  .string({ error: BAD_COLOUR })
  .regex(/^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, { error: BAD_COLOUR })
  .openapi({ description: '`#RRGGBB` or `#RRGGBBAA`', example: '#00FF00' });

export const TransparentFormat = z
  .enum(TRANSPARENT_FORMATS)
  .openapi({ description: 'Transparent output format' });

/**
 * What an export may be: a transparent format or a versioned sticker format (docs/outputs.md,
 * "Stickers").
 */
export const ExportFormat = z.enum(EXPORT_FORMATS).openapi({
  description: 'A transparent format or a versioned sticker format such as `telegram_video_v1`',
});

export const Transform = z
  .object({
    crop: z
      .object({
        x: z.number().min(0),
        y: z.number().min(0),
        width: z.number().positive(),
        height: z.number().positive(),
      })
      .nullish(),
    max_width: z.number().int().min(16).max(8192).nullish(),
    fps: z.number().int().min(1).max(120).nullish(),
    reverse: z.boolean().nullish(),
  })
  .openapi('Transform');

const BAD_PRESET = userMessage(
  `background.options.preset must be one of: ${ENGINE_PRESET_NAMES.join(', ')}`,
);

export const EnginePreset = z.enum(ENGINE_PRESET_NAMES, { error: BAD_PRESET }).openapi({
  description:
    "Engine preset, within the model's price (`balanced` when " +
    'absent): ' +
    `${ENGINE_PRESET_NAMES.map((n) => `\`${n}\`: ${ENGINE_PRESETS[n].summary}`).join(' ')}`,
});

const ProcessingOptions = z.object({
  preset: EnginePreset.nullish(),
  smart_sampling: z.boolean().nullish(),
  threshold: z.number().min(0).max(1).nullish(),
});

/**
 * Stored starts (and the dashboard's) read a preset this version does not know as none: before
 * presets existed any string was accepted and ignored, and such a job must stay readable.
 */
const StoredProcessingOptions = ProcessingOptions.extend({
  preset: EnginePreset.nullish().catch(null),
});

const LOTTIE_PRESET_NAMES = Object.keys(LOTTIE_PRESETS) as [LottiePreset, ...LottiePreset[]];

/** `options`' three fields, applied to a Lottie file (docs/api.md, "Lottie"). */
const LottieOptions = z
  .object({
    preset: z
      .enum(LOTTIE_PRESET_NAMES, {
        error: userMessage(
          `lottie_options.preset must be one of ${LOTTIE_PRESET_NAMES.join(', ')}`,
        ),
      })
      .nullish()
      .openapi({
        description:
          'How frames are embedded: `balanced` (default, WebP quality ' +
          '75), `small` (50), `quality` (90), `png` (lossless PNG)',
      }),
    smart_sampling: z.boolean().nullish().openapi({
      description: 'Hold a frame that barely changes instead of embedding it again (default true)',
    }),
    threshold: z.number().min(0).max(1).nullish().openapi({
      description: 'Hard alpha: opaque at or above this, transparent below; null keeps soft alpha',
    }),
  })
  .openapi('LottieOptions');
/** As StoredProcessingOptions: a Lottie preset stored before presets were checked reads as none. */
const StoredLottieOptions = LottieOptions.extend({
  preset: LottieOptions.shape.preset.catch(null),
});

const compositionFields = {
  template: z.enum(['full', 'centered', 'ai_ugc_ad']).nullish(),
  background_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).nullish(),
  background_type: z.enum(['image', 'video']).nullish(),
  background_audio_enabled: z.boolean().nullish(),
  background_audio_volume: z.number().min(0).max(1).nullish(),
  export_format: z
    .enum(CONTAINER_NAMES, {
      error: userMessage(`export_format must be one of ${CONTAINER_NAMES.join(', ')}`),
    })
    .nullish()
    .openapi({ description: 'Container of the result; `h264` is an H.264 MP4, as `mp4`' }),
  export_crf: z.number().int().min(0).max(51).nullish(),
  export_preset: z
    .enum(X264_PRESETS, {
      error: userMessage(`export_preset must be one of ${X264_PRESETS.join(', ')}`),
    })
    .nullish()
    .openapi({
      description:
        "x264's speed preset for an H.264 MP4 (default `veryfast`); other containers ignore it",
    }),
};

export const Composition = z.object(compositionFields).openapi('Composition');

/**
 * The dashboard's composition may instead name an image the user uploaded into the job's own
 * storage (`jobs/<id>/background.<ext>`, see lib/services/uploads/upload-background.ts). Not
 * part of the public API: /v1 parses with `Composition`, which drops the field.
 */
const UploadedComposition = z.object({
  ...compositionFields,
  background_key: z.string().max(512).nullish(),
});

export const BACKGROUND_TYPES = ['color', 'transparent', 'composition', 'blur'] as const;

const NEEDS_COLOUR = userMessage('background.color is required when background.type is "color"');
const NEEDS_BACKGROUND_URL = userMessage(
  'background.composition.background_url is required when background.type is "composition"',
);

const backgroundFields = {
  type: z.enum(BACKGROUND_TYPES),
  color: HexColour.nullish(),
  transparent_format: TransparentFormat.nullish(),
  transform: Transform.nullish(),
  options: ProcessingOptions.nullish(),
  lottie_options: LottieOptions.nullish(),
  blur_mode: z.enum(['background', 'subject']).nullish(),
  blur_intensity: z.number().min(0).max(100).nullish(),
  blur_type: z.enum(['gaussian', 'box']).nullish(),
};

type BackgroundChecked = {
  type: string;
  color?: string | null;
  composition?: { background_url?: string | null; background_key?: string | null } | null;
};

function checkBackground(b: BackgroundChecked, ctx: z.RefinementCtx) {
  if (b.type === 'color' && !b.color)
    ctx.addIssue({ code: 'custom', path: ['color'], message: NEEDS_COLOUR });
  if (
    b.type === 'composition' &&
    !b.composition?.background_url &&
    !b.composition?.background_key
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['composition', 'background_url'],
      message: NEEDS_BACKGROUND_URL,
    });
  }
}

/** The public API's background object. */
export const Background = z
  .object({ ...backgroundFields, composition: Composition.nullish() })
  .superRefine(checkBackground)
  .openapi('Background');

/**
 * A background as the dashboard sends it and as a job stores it: the public one, or a composition
 * on an uploaded image.
 */
export const StoredBackground = z
  .object({
    ...backgroundFields,
    options: StoredProcessingOptions.nullish(),
    lottie_options: StoredLottieOptions.nullish(),
    composition: UploadedComposition.nullish(),
  })
  .superRefine(checkBackground);
export type Background = z.infer<typeof StoredBackground>;

// ── exports ───────────────────────────────────────────────────────────────────

export const MAX_UNIQUE_OUTPUTS = 50;

type TransformInput = z.infer<typeof Transform> | null | undefined;

/**
 * A sticker's canvas, loop and rate are its policy's: its transform takes `crop`, `fps` (12 to 30)
 * and `reverse` only, and it has no sizes (spec, "Sticker format rules").
 */
function stickerIssues(
  format: string,
  transform: TransformInput,
  sizes: unknown,
): { path: string[]; message: string }[] {
  if (!isStickerFormat(format)) return [];
  const issues: { path: string[]; message: string }[] = [];
  if (sizes != null)
    issues.push({
      path: ['sizes'],
      message: userMessage(
        `sizes are not supported for sticker formats (${format} has a fixed canvas)`,
      ),
    });
  if (transform?.max_width != null) {
    issues.push({
      path: ['transform', 'max_width'],
      message: userMessage(
        `max_width is not supported for sticker formats (${format} has a fixed canvas)`,
      ),
    });
  }
  const fps = transform?.fps;
  if (fps != null && (fps < STICKER_MIN_FPS || fps > STICKER_MAX_FPS)) {
    issues.push({
      path: ['transform', 'fps'],
      message: userMessage(
        `a sticker's frame rate must be from ${STICKER_MIN_FPS} to ` +
          `${STICKER_MAX_FPS} fps (got ${fps})`,
      ),
    });
  }
  return issues;
}

/** Export sizes: `native` keeps the source size, a number is a maximum width. */
export const ExportSizes = z
  .array(z.union([z.literal('native'), z.number().int().min(16).max(8192)]))
  .min(1);
type Sizes = z.infer<typeof ExportSizes> | null | undefined;

/**
 * What an export's format refuses of its sizes and transform (a sticker's fixed canvas, a fixed
 * layout's size).
 */
export function exportIssues(
  format: ExportFormatId,
  transform: TransformInput,
  sizes: Sizes,
): { path: string[]; message: string }[] {
  if (isStickerFormat(format)) return stickerIssues(format, transform, sizes);
  // Refinements also run on a format the enum refused: it has nothing more to check.
  if (!isTransparentFormat(format)) return [];
  // Formats whose fixed layouts cannot be resized: only `native` is accepted in their sizes.
  if (outputFormat(format).nativeOnly && sizes?.some((s) => s !== 'native')) {
    return [
      {
        path: ['sizes'],
        message: userMessage(`numeric sizes are not supported for ${format}; use "native"`),
      },
    ];
  }
  return [];
}

export const ExportItem = z
  .object({
    format: ExportFormat,
    sizes: ExportSizes.nullish(),
    transform: Transform.nullish(),
  })
  .superRefine((item, ctx) => {
    for (const issue of exportIssues(item.format, item.transform, item.sizes))
      ctx.addIssue({ code: 'custom', ...issue });
  })
  .openapi('ExportRequest');
export type ExportItem = z.infer<typeof ExportItem>;

/**
 * A list of export items. Its length is not the limit: identical items make one output, and
 * planExports (lib/services/outputs/recipes.ts) counts the 50 unique outputs besides the primary
 * once they are merged (the JSON body cap bounds the list).
 */
export const ExportList = z.array(ExportItem).openapi({
  description:
    `At most ${MAX_UNIQUE_OUTPUTS} unique outputs once identical ` +
    "ones are merged, besides a start's primary output",
});
