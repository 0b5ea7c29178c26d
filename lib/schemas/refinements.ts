import { API_MODEL_ROWS, resolveApiModel, type ApiModel } from '../../engine/api-models';
import { MAX_CLICK_POINTS } from '../../engine/prompts/click-track';
import { MaskVersionInput } from './common';
import { userMessage } from './messages';
import { z } from './zod';

/** `POST /v1/jobs/{id}/refine-mask` and the refinement and mask-version records. */

const DEFAULT_REFINE_MODEL: ApiModel = 'service-pro';
/** The models that allow text prompts, the default first. */
const TEXT_MODELS = API_MODEL_ROWS.filter((m) => m.textPrompts).sort(
  (a, b) => Number(b.id === DEFAULT_REFINE_MODEL) - Number(a.id === DEFAULT_REFINE_MODEL),
);
export const MAX_PROMPT_CHARS = 500;

export const RefineModel = z
  .string()
  .nullish()
  .transform((m, ctx): ApiModel => {
    const model = m ? resolveApiModel(m) : DEFAULT_REFINE_MODEL;
    if (!model || !TEXT_MODELS.some((t) => t.id === model)) {
      ctx.addIssue({
        code: 'custom',
        message: userMessage(
          'model must be one that supports text prompts: ' +
            `${TEXT_MODELS.map((t) => t.id).join(' (default) or ')}`,
        ),
      });
      return z.NEVER;
    }
    return model;
  })
  .openapi({
    type: 'string',
    enum: TEXT_MODELS.map((m) => m.id),
    description: 'The model that supports text prompts; service-pro by default',
  });

const POINT_XY = userMessage("prompt.points[].x and .y must be numbers ≥ 0, in the video's pixels");
const POINTS_COUNT = userMessage(`prompt.points must be a list of 1 to ${MAX_CLICK_POINTS} points`);

const TextPrompt = z
  .object({
    mode: z.literal('text').nullish().openapi({ description: '`text` (the default)' }),
    text: z.string({ error: userMessage('prompt.text is required') }).max(MAX_PROMPT_CHARS, {
      error: userMessage(`prompt.text is at most ${MAX_PROMPT_CHARS} characters`),
    }),
  })
  .openapi('RefineTextPrompt');

export const RefinePoint = z
  .object({
    x: z.number({ error: POINT_XY }).min(0, { error: POINT_XY }),
    y: z.number({ error: POINT_XY }).min(0, { error: POINT_XY }),
    include: z
      .boolean({
        error: userMessage(
          'prompt.points[].include must be true (part of the object) or false (not part of it)',
        ),
      })
      .nullish()
      .openapi({ description: 'true (default): the point is on the object; false: it is not' }),
  })
  .openapi('RefinePoint', {
    description: "A click, in the video's display pixels (0,0 is the top-left corner)",
  });

const PointsPrompt = z
  .object({
    mode: z.literal('points'),
    time: z
      .number({
        error: userMessage('prompt.time is required: the second of the video the points are on'),
      })
      .min(0, { error: userMessage('prompt.time must be ≥ 0 seconds') }),
    points: z
      .array(RefinePoint, { error: POINTS_COUNT })
      .min(1, { error: POINTS_COUNT })
      .max(MAX_CLICK_POINTS, { error: POINTS_COUNT })
      .refine((ps) => ps.some((p) => p.include !== false), {
        error: userMessage('prompt.points needs at least one point with include: true'),
      }),
  })
  .openapi('RefinePointsPrompt', {
    description:
      'Extension: click prompts. The object under the points on the ' +
      'frame shown at `time` (SAM), followed through the whole video.',
  });

export const RefinePrompt = z
  .discriminatedUnion('mode', [TextPrompt, PointsPrompt], {
    error: userMessage('prompt.mode must be "text" or "points"'),
  })
  .openapi('RefinePrompt');

export const EdgeCleanup = z
  .object({
    enabled: z.boolean().nullish(),
    size: z
      .number()
      .int({
        error: userMessage('edge_cleanup.size must be an integer from 128 to 1024, divisible by 8'),
      })
      .min(128, {
        error: userMessage('edge_cleanup.size must be an integer from 128 to 1024, divisible by 8'),
      })
      .max(1024, {
        error: userMessage('edge_cleanup.size must be an integer from 128 to 1024, divisible by 8'),
      })
      .refine((s) => s % 8 === 0, {
        error: userMessage('edge_cleanup.size must be an integer from 128 to 1024, divisible by 8'),
      })
      .nullish(),
  })
  .openapi('EdgeCleanup', {
    description:
      'Soft-alpha edge refinement of the fused mask (guided filter) ' +
      'with `size` the longest side it works at',
  });

export const RefineMaskRequest = z
  .object({
    op: z
      .enum(['add', 'subtract'], { error: userMessage('op must be "add" or "subtract"') })
      .nullish(),
    model: RefineModel,
    prompt: RefinePrompt.nullish(),
    edge_cleanup: EdgeCleanup.nullish(),
    from_version: MaskVersionInput(
      'Extension: the mask version the client refines from. When ' +
        'given and it is no longer the active version, the request ' +
        'answers 409 instead of refining a mask the client has not ' +
        'seen.',
    ),
  })
  .refine((b) => Boolean(b.prompt), {
    error: userMessage('prompt is required: {"text": "..."}'),
    path: ['prompt'],
  })
  .openapi('RefineMaskRequest');
export type RefineMaskRequest = z.infer<typeof RefineMaskRequest>;

/** Spec: 1 to 128 characters, each printable ASCII from 0x21 to 0x7e. */
export const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,128}$/, {
  error: userMessage('Idempotency-Key must be 1 to 128 printable ASCII characters (0x21 to 0x7e)'),
});

export const REFINEMENT_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

export const RefinementRecord = z
  .object({
    refinement_id: z.uuid(),
    job_id: z.uuid(),
    status: z.enum(REFINEMENT_STATUSES).openapi({
      description:
        '`queued` when new; `failed` is terminal (credits refunded, a ' +
        'new Idempotency-Key is needed)',
    }),
    op: z.enum(['add', 'subtract']),
    model: z.string(),
    version: z.number().int().openapi({
      description: 'The mask version it writes; versions may have gaps after failed attempts',
    }),
    credits_used: z.number().int(),
    created_at: z.iso.datetime(),
    from_version: z.number().int().openapi({ description: 'Extension: the version it refines' }),
    prompt: z
      .discriminatedUnion('mode', [
        z.object({ mode: z.literal('text'), text: z.string() }),
        z.object({
          mode: z.literal('points'),
          time: z.number(),
          frame: z
            .number()
            .int()
            .openapi({ description: 'The frame the points are on: the one shown at `time`' }),
          points: z.array(z.object({ x: z.number(), y: z.number(), include: z.boolean() })),
        }),
      ])
      .openapi({ description: 'Extension: the prompt as given, defaults filled in' }),
    concepts: z.array(z.string()).openapi({
      description: 'Extension: what a text prompt was understood to name (empty for points)',
    }),
    edge_cleanup: z
      .object({ enabled: z.boolean(), size: z.number().int() })
      .openapi({ description: 'Extension: the edge cleanup applied' }),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    error: z.string().optional().openapi({ description: 'Why it failed; when failed' }),
  })
  .openapi('Refinement');
export type RefinementRecord = z.infer<typeof RefinementRecord>;

export const MaskVersionRecord = z
  .object({
    version: z.number().int(),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    source: z.enum(['segmentation', 'refinement']),
    active: z.boolean(),
    refinement_id: z.uuid().nullable(),
    created_at: z.iso.datetime(),
  })
  .openapi('MaskVersion');

export const MaskVersionList = z
  .object({
    job_id: z.uuid(),
    active_version: z.number().int().nullable(),
    versions: z.array(MaskVersionRecord),
  })
  .openapi('MaskVersionList', { description: "Extension: the job's mask versions, oldest first" });
export type MaskVersionList = z.infer<typeof MaskVersionList>;

export const RefinementIdParams = z.object({
  refinementId: z.string().openapi({ format: 'uuid' }),
});
export const MaskVersionParams = z.object({
  id: z.string().openapi({ description: 'Job id (uuid)', format: 'uuid' }),
  version: z.string().openapi({ description: 'A completed mask version of the job' }),
});
