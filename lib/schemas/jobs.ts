import {
  API_MODEL_ROWS,
  DEFAULT_MODEL,
  resolveApiModel,
  type ApiModel,
} from '../../engine/api-models';
import { Background, ExportList, StoredBackground } from './background';
import { userMessage } from './messages';
import { z } from './zod';

// ── create ────────────────────────────────────────────────────────────────────

export const SOURCE_REQUIRED = userMessage(
  'One of (filename with content_type) or video_url is required',
);

/**
 * What an upload may be declared as: a video type, or application/octet-stream (a file whose
 * type the client does not know). Which container it really is, the bytes say at upload.
 */
function takesContentType(type: string): boolean {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return base.startsWith('video/') || base === 'application/octet-stream';
}

export const CreateJobRequest = z
  .object({
    filename: z.string().trim().min(1).max(255).nullish(),
    content_type: z
      .string()
      .trim()
      .regex(/^[\w.+-]+\/[\w.+-]+(;.*)?$/, { error: 'must be a MIME type such as video/mp4' })
      .refine(takesContentType, {
        error: (iss) =>
          'must be a video type such as video/mp4 (or ' +
          `application/octet-stream), not ${String(iss.input)}`,
      })
      .nullish(),
    video_url: z
      .url({ protocol: /^https?$/, error: userMessage('video_url must be an http(s) URL') })
      .nullish(),
    content_length: z
      .number()
      .int()
      .positive()
      .nullish()
      .openapi({
        description:
          "Extension: the file's exact size in bytes. Over the upload " +
          'limit → 413 at once. Given, the upload_url is signed for that ' +
          'size: where uploads go straight into S3, the store itself ' +
          'refuses a body of any other size.',
      }),
  })
  .refine((b) => Boolean(b.video_url) || Boolean(b.filename && b.content_type), {
    error: SOURCE_REQUIRED,
  })
  .openapi('CreateJobRequest');
export type CreateJobRequest = z.infer<typeof CreateJobRequest>;

export const JobReceipt = z
  .object({
    id: z.uuid(),
    status: z.literal('created'),
    filename: z.string(),
    content_type: z.string(),
    upload_url: z.url(),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    instructions: z.object({
      method: z.literal('PUT'),
      headers: z.object({
        'Content-Type': z.string(),
        'Content-Length': z.string().optional().openapi({
          description: 'When content_length was given: the PUT must carry exactly this size',
        }),
      }),
      note: z.string(),
    }),
  })
  .openapi('JobReceipt', {
    description: 'A job waiting for its video: PUT the file to upload_url.',
  });

/** The URL and multipart variants: the video is already stored and probed. */
export const UploadedJob = z
  .object({
    id: z.uuid(),
    status: z.literal('uploaded'),
    filename: z.string(),
    content_type: z.string(),
    video_url: z.string().nullable(),
    length_seconds: z.number().nullable(),
    created_at: z.iso.datetime(),
  })
  .openapi('UploadedJob');

// ── start ─────────────────────────────────────────────────────────────────────

const MODEL_INPUTS = API_MODEL_ROWS.flatMap((m) => [m.id, ...m.aliases]) as [string, ...string[]];

/**
 * A model id or one of its aliases (engine/api-models.ts); null or absent means the default model.
 */
export const ModelInput = z
  .enum(MODEL_INPUTS)
  .nullish()
  .transform((m): ApiModel => (m ? resolveApiModel(m)! : DEFAULT_MODEL))
  .openapi({
    description:
      API_MODEL_ROWS.map((m) => (m.id === DEFAULT_MODEL ? `${m.id} (default)` : m.id)).join(', ') +
      `; aliases ${API_MODEL_ROWS.flatMap((m) => m.aliases).join(', ')}`,
  });

const startFields = {
  format: z.enum(['mp4', 'webm', 'mov']).nullish(),
  model: ModelInput,
  exports: ExportList.nullish(),
  webhook_url: z
    .url({ protocol: /^https?$/, error: userMessage('webhook_url must be an http(s) URL') })
    .nullish(),
};

function checkStart(b: { exports?: unknown[] | null; background?: unknown }, ctx: z.RefinementCtx) {
  if (b.exports?.length && !b.background) {
    ctx.addIssue({
      code: 'custom',
      path: ['background'],
      message: userMessage('background is required when exports are given'),
    });
  }
}

export const StartJobRequest = z
  .object({ ...startFields, background: Background.nullish() })
  .superRefine(checkStart)
  .openapi('StartJobRequest');
/**
 * The dashboard's start: the public request, whose composition may name the job's uploaded
 * background image.
 */
export const DashboardStartRequest = z
  .object({ ...startFields, background: StoredBackground.nullish() })
  .superRefine(checkStart);
export type DashboardStartRequest = z.infer<typeof DashboardStartRequest>;
export type StartJobRequest = z.infer<typeof StartJobRequest>;

/**
 * The start fields a body really gives (present and not null): an image-to-video job keeps its
 * creation options for the rest.
 */
export function givenStartFields(body: unknown): ReadonlySet<keyof StartJobRequest> {
  if (!body || typeof body !== 'object') return new Set();
  return new Set(
    Object.entries(body).flatMap(([k, v]) => (v == null ? [] : [k as keyof StartJobRequest])),
  );
}

export const ClassicBackgroundSchema = z
  .object({
    type: z.enum(['color', 'transparent']),
    color: z.string().optional(),
    transparent_format: z.string().optional(),
  })
  .openapi('BackgroundEcho');

export const StartResponse = z
  .object({
    id: z.uuid(),
    export_id: z.uuid().optional(),
    batch_id: z.uuid().optional(),
    total_exports: z.number().int().optional(),
    exports: z
      .array(
        z.object({
          export_id: z.uuid(),
          format: z.string(),
          status: z.string(),
          transform: z.record(z.string(), z.unknown()).nullable(),
        }),
      )
      .optional(),
    status: z.literal('processing'),
    created_at: z.iso.datetime(),
    creditsUsed: z.number().int(),
    video_length_seconds: z.number(),
    background: Background.optional(),
    message: z.string().optional(),
    webhook_url: z.string().optional(),
  })
  .openapi('StartResponse', { description: '`creditsUsed` is the exact charge.' });

// ── status and delete ────────────────────────────────────────────────────────

export const JOB_STATUSES = ['created', 'uploaded', 'processing', 'completed', 'failed'] as const;

export const JobStatusRecord = z
  .object({
    id: z.uuid(),
    status: z.enum(JOB_STATUSES),
    filename: z.string(),
    created_at: z.iso.datetime(),
    export_id: z.string().nullable(),
    length_seconds: z.number().nullable(),
    thumbnail_url: z.string().nullable(),
    transparent_thumbnail_url: z.string().nullable(),
    processed_video_url: z.string().nullable(),
    processed_mask_url: z.string().nullable(),
    message: z.string().nullable(),
    background: ClassicBackgroundSchema.nullable(),
    output_format: z.string().nullable(),
    progress: z
      .object({
        frames_done: z.number().int(),
        frames_total: z.number().int(),
        fps: z.number().nullable(),
        eta_seconds: z.number().nullable(),
      })
      .nullable()
      .openapi({ description: 'Extra: frame progress while processing' }),
  })
  .openapi('JobStatus');
export type JobStatusRecord = z.infer<typeof JobStatusRecord>;

export const DeleteJobResponse = z
  .object({ id: z.uuid(), message: z.string() })
  .openapi('DeleteJobResponse');
