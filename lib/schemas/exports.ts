import { isStickerFormat } from '../../engine/formats';
import { exportIssues, ExportFormat, ExportList, ExportSizes, Transform } from './background';
import { MaskVersionInput } from './common';
import { userMessage } from './messages';
import { z } from './zod';

/**
 * Exports made from a completed job (`POST /v1/jobs/{id}/exports`, `batch-exports`) and their
 * records. Every optional field also accepts an explicit null, as start's do.
 */

const MaskVersion = MaskVersionInput(
  'A completed mask version of the job to render from (extension ' +
    'beyond the spec for single exports); the active version by ' +
    'default.',
);

export const CreateExportRequest = z
  .object({
    format: ExportFormat.nullish(),
    /** The earlier input name for a sticker format (spec); `format` is preferred. */
    sticker_profile: ExportFormat.nullish().openapi({
      description: 'Earlier input name of `format` for sticker formats; `format` is preferred',
    }),
    transform: Transform.nullish(),
    sizes: ExportSizes.nullish().openapi({
      description:
        'One size, as in batch-exports (`native` or a maximum width); ' +
        'several sizes need batch-exports. Not for sticker formats.',
    }),
    mask_version: MaskVersion,
  })
  .refine((b) => Boolean(b.format ?? b.sticker_profile), {
    error: userMessage('format is required'),
    path: ['format'],
  })
  .refine((b) => !(b.format && b.sticker_profile && b.format !== b.sticker_profile), {
    error: userMessage('format and sticker_profile name different formats; give one of them'),
    path: ['sticker_profile'],
  })
  .superRefine((b, ctx) => {
    const format = b.format ?? b.sticker_profile;
    if (format)
      for (const issue of exportIssues(format, b.transform, b.sizes))
        ctx.addIssue({ code: 'custom', ...issue });
    if (format && !isStickerFormat(format) && b.sizes) {
      if (b.sizes.length > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['sizes'],
          message: userMessage(
            'a single export makes one file: give one size, or use batch-exports for several',
          ),
        });
      } else if (typeof b.sizes[0] === 'number' && b.transform?.max_width != null) {
        ctx.addIssue({
          code: 'custom',
          path: ['sizes'],
          message: userMessage('give the width once: in sizes or in transform.max_width'),
        });
      }
    }
  })
  // A numeric size is the export's maximum width, as in batch-exports.
  .transform(({ sticker_profile, sizes, ...b }) => ({
    ...b,
    format: b.format ?? sticker_profile,
    transform:
      typeof sizes?.[0] === 'number' ? { ...b.transform, max_width: sizes[0] } : b.transform,
  }))
  .openapi('CreateExportRequest');
export type CreateExportRequest = z.infer<typeof CreateExportRequest>;

export const CreateBatchRequest = z
  .object({
    exports: ExportList.min(1).nullish(),
    /** The name some clients use for the list. */
    profiles: ExportList.min(1).nullish(),
    use_gpu: z.boolean().nullish(),
    mask_version: MaskVersion,
  })
  .refine((b) => Boolean(b.exports?.length ?? b.profiles?.length), {
    error: userMessage('exports (or profiles) is required: a list of {format, transform?, sizes?}'),
    path: ['exports'],
  })
  .refine((b) => !(b.exports && b.profiles), {
    error: userMessage('give exports or profiles, not both'),
    path: ['profiles'],
  })
  .openapi('CreateBatchRequest');
export type CreateBatchRequest = z.infer<typeof CreateBatchRequest>;

export const EXPORT_STATUSES = ['queued', 'completed', 'failed'] as const;

const StickerMetadata = z
  .object({
    policy: z.string().openapi({
      description: 'The sticker policy, e.g. `telegram_video`; `profile` names it with its version',
    }),
    version: z.number().int(),
    platform: z.string(),
    canvas: z.object({ width: z.number().int(), height: z.number().int() }),
    limit_bytes: z.number().int().openapi({ description: "The platform's byte limit" }),
    budget_bytes: z
      .number()
      .int()
      .openapi({ description: '90 % of the limit: the file is at most this' }),
    max_seconds: z.number(),
    source_seconds: z.number(),
    speed_up: z.number().openapi({
      description: 'How much a source longer than max_seconds was sped up (1 = not retimed)',
    }),
    final_fps: z.number(),
    attempts: z
      .array(
        z.object({
          quality: z.record(z.string(), z.number()),
          fps: z.number(),
          bytes: z.number().int(),
          fits: z.boolean(),
        }),
      )
      .openapi({
        description: 'Every attempt of the adaptive encoder, in order; the last one fits',
      }),
  })
  .openapi('StickerMetadata', { description: 'What the adaptive sticker encoder did' });

export const ExportMetadata = z
  .object({
    validated: z.literal(true),
    format: z.string().openapi({
      description:
        'The encoded codec (vp9, prores, hevc, h264, webp, gif, apng, ' +
        'png; `lottie` for a Lottie JSON)',
    }),
    profile: z.string().openapi({
      description:
        'The validation policy the file passed; for a sticker, its ' +
        'versioned sticker policy (the format id)',
    }),
    container: z.string(),
    bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    duration_seconds: z.number(),
    fps: z.number(),
    frame_count: z.number().int(),
    loop: z.boolean(),
    loop_count: z.number().int().nullable(),
    has_alpha: z.boolean(),
    alpha: z.string(),
    alpha_inverted: z.boolean(),
    alpha_range: z.tuple([z.number(), z.number()]).nullable(),
    has_audio: z.boolean(),
    pixel_format: z.string(),
    sha256: z.string(),
    sticker: StickerMetadata.optional(),
    lottie: z
      .object({ images: z.number().int(), image_format: z.enum(['webp', 'png']) })
      .optional()
      .openapi({
        description:
          'A Lottie: its embedded images (fewer than its frames where ' +
          'smart sampling held a frame) and their format',
      }),
  })
  .openapi('ExportMetadata', { description: 'Facts checked on the file before it was served' });

export const ExportRecord = z
  .object({
    export_id: z.uuid(),
    job_id: z.uuid(),
    format: z.string(),
    status: z.enum(EXPORT_STATUSES).openapi({
      description:
        '`queued` until the file is made and validated (`started_at` says when a worker took it)',
    }),
    transform: z.record(z.string(), z.unknown()).nullable(),
    mask_version: z.number().int().nullable().openapi({
      description: 'The mask version it renders from (null until a start output begins)',
    }),
    batch_id: z.uuid().nullable(),
    created_at: z.iso.datetime(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    output_url: z
      .url()
      .optional()
      .openapi({ description: 'Signed, valid one hour; when completed' }),
    poster_url: z
      .url()
      .optional()
      .openapi({ description: 'Signed PNG still of the output, valid one hour; when completed' }),
    metadata: ExportMetadata.optional(),
    error: z.string().optional().openapi({ description: 'Why it failed; when failed' }),
  })
  .openapi('Export', {
    description:
      'An export receipt; when completed also its URLs and metadata, when failed its error.',
  });
export type ExportRecord = z.infer<typeof ExportRecord>;

export const BATCH_STATUSES = ['queued', 'processing', 'completed', 'failed', 'partial'] as const;

export const BatchRecord = z
  .object({
    batch_id: z.uuid(),
    job_id: z.uuid(),
    status: z
      .enum(BATCH_STATUSES)
      .openapi({ description: '`partial`: every export finished, some failed' }),
    use_gpu: z.boolean(),
    total_exports: z.number().int(),
    completed_exports: z.number().int(),
    failed_exports: z.number().int(),
    created_at: z.iso.datetime(),
    exports: z.array(ExportRecord),
  })
  .openapi('Batch');
export type BatchRecord = z.infer<typeof BatchRecord>;

/** Path id of an export or a batch: anything not found is the same 404. */
export const ExportIdParams = z.object({ exportId: z.string().openapi({ format: 'uuid' }) });
export const BatchIdParams = z.object({ batchId: z.string().openapi({ format: 'uuid' }) });
