import { z } from 'zod';
import {
  EXPORT_FORMATS,
  LOTTIE_PRESETS,
  OPAQUE_CONTAINERS,
  X264_PRESETS,
  type LottiePreset,
} from '../../../engine/formats';
import type { Recipe, Transform } from '../../../engine/media/recipe';
import { jsonColumn } from '../../db/json-column';
import type { Output } from '../../db/generated/client';
import { ExportMetadata } from '../../schemas/exports';

/**
 * The Output's JSON columns, one codec each: what each holds, parsed on every read and written
 * through the same codec (lib/db/json-column.ts).
 */

const StoredTransform = z.object({
  crop: z
    .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
    .optional(),
  max_width: z.number().optional(),
  fps: z.number().optional(),
  reverse: z.boolean().optional(),
}) satisfies z.ZodType<Transform>;

/** Output.transformJson: the recipe's transform, kept beside it for the records. */
export const transformColumn = jsonColumn('Output.transformJson', StoredTransform);

/** An output's stored transform, as its records and the start response show it. */
export const storedTransform = (output: Pick<Output, 'transformJson'>) =>
  transformColumn.readNullable(output.transformJson);

const LOTTIE_PRESET_NAMES = Object.keys(LOTTIE_PRESETS) as [LottiePreset, ...LottiePreset[]];

const opaque = {
  exportFormat: z.enum(OPAQUE_CONTAINERS),
  transform: StoredTransform.optional(),
};
const x264 = { crf: z.number().optional(), preset: z.enum(X264_PRESETS).optional() };

/**
 * Output.recipeJson: what the output renders (engine/media/recipe.ts), stored when it is created.
 */
export const recipeColumn = jsonColumn(
  'Output.recipeJson',
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('transparent'),
      format: z.enum(EXPORT_FORMATS),
      transform: StoredTransform.optional(),
      lottie: z
        .object({
          preset: z.enum(LOTTIE_PRESET_NAMES),
          smartSampling: z.boolean(),
          threshold: z.number().nullable(),
        })
        .optional(),
    }),
    z.object({ kind: z.literal('color'), color: z.string(), ...opaque }),
    z.object({
      kind: z.literal('composition'),
      background: z.union([
        z.object({ url: z.string() }),
        z.object({ key: z.string() }),
        z.object({ file: z.string() }),
      ]),
      template: z.enum(['full', 'centered', 'ai_ugc_ad']),
      backgroundAudio: z.boolean(),
      backgroundAudioVolume: z.number(),
      ...x264,
      ...opaque,
    }),
    z.object({
      kind: z.literal('blur'),
      blur: z.object({
        mode: z.enum(['background', 'subject']),
        intensity: z.number(),
        type: z.enum(['gaussian', 'box']),
      }),
      ...x264,
      ...opaque,
    }),
  ]) satisfies z.ZodType<Recipe>,
);

/**
 * Output.metadataJson: the validated facts of a completed output, as served. Rows validated
 * before `duration_seconds` hold `duration`, read as `duration_seconds`.
 */
export const metadataColumn = jsonColumn(
  'Output.metadataJson',
  z.preprocess(
    (m) =>
      m && typeof m === 'object' && 'duration' in m
        ? { duration_seconds: m.duration, ...m, duration: undefined }
        : m,
    ExportMetadata,
  ),
);
