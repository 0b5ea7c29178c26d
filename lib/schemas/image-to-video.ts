import { MOTIONS, STILL_DEFAULTS, STILL_LIMITS, type Motion } from '../../engine/media/still';
import type { ApiModel } from '../../engine/api-models';
import { Background, ExportItem, ExportList } from './background';
import { JobReceipt, ModelInput, StartJobRequest, UploadedJob } from './jobs';
import { userMessage } from './messages';
import { z } from './zod';

/**
 * `POST /v1/h3/image-to-video`: a job whose source is a still image. Its options are stored with
 * the job and become its start options (`POST /v1/jobs/{id}/start` may still replace model,
 * background or exports).
 */

export const STILL_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_SOURCE_REQUIRED = userMessage(
  'One of (filename with content_type), image_url or a multipart file is required',
);

export const ImageToVideoOptionsSchema = z.object({
  duration_seconds: z
    .number()
    .min(STILL_LIMITS.minSeconds)
    .max(STILL_LIMITS.maxSeconds)
    .nullish()
    .openapi({
      description:
        'Length of the clip, ' +
        `${STILL_LIMITS.minSeconds}–${STILL_LIMITS.maxSeconds} s ` +
        `(default ${STILL_DEFAULTS.durationSeconds})`,
    }),
  fps: z
    .number()
    .int()
    .min(STILL_LIMITS.minFps)
    .max(STILL_LIMITS.maxFps)
    .nullish()
    .openapi({
      description: `${STILL_LIMITS.minFps}–${STILL_LIMITS.maxFps} (default ${STILL_DEFAULTS.fps})`,
    }),
  motion: z
    .enum(MOTIONS)
    .nullish()
    .openapi({ description: `The camera move (default ${STILL_DEFAULTS.motion})` }),
  model: ModelInput,
  background: Background.nullish(),
  exports: ExportList.nullish().openapi({
    description: 'Rendered at start like start `exports`; sticker formats allowed',
  }),
});

export type ImageToVideoOptions = z.infer<typeof ImageToVideoOptionsSchema>;

export const ImageToVideoRequest = ImageToVideoOptionsSchema.extend({
  filename: z.string().trim().min(1).max(255).nullish(),
  content_type: z
    .enum(STILL_CONTENT_TYPES, {
      error: userMessage(`content_type must be one of ${STILL_CONTENT_TYPES.join(', ')}`),
    })
    .nullish(),
  image_url: z
    .url({ protocol: /^https?$/, error: userMessage('image_url must be an http(s) URL') })
    .nullish(),
})
  .refine((b) => Boolean(b.image_url) || Boolean(b.filename && b.content_type), {
    error: IMAGE_SOURCE_REQUIRED,
  })
  .superRefine((b, ctx) => startRules(b, ctx))
  .openapi('ImageToVideoRequest');
export type ImageToVideoRequest = z.infer<typeof ImageToVideoRequest>;

/** The start request's own rules (exports need a background), checked at creation already. */
function startRules(b: { background?: unknown; exports?: unknown }, ctx: z.RefinementCtx) {
  const r = StartJobRequest.safeParse({ background: b.background, exports: b.exports });
  for (const issue of r.error?.issues ?? [])
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}

/** The options of a multipart request: text fields, `background` and `exports` as JSON. */
export function multipartOptions(fields: Record<string, string>): ImageToVideoOptions {
  const json = (name: string) => {
    const v = fields[name];
    if (v === undefined || v === '') return undefined;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw new z.ZodError([
        { code: 'custom', path: [name], message: userMessage(`${name} must be JSON`), input: v },
      ]);
    }
  };
  const number = (name: string) =>
    fields[name] === undefined || fields[name] === '' ? undefined : Number(fields[name]);
  return ImageToVideoOptionsSchema.superRefine((b, ctx) => startRules(b, ctx)).parse({
    duration_seconds: number('duration_seconds'),
    fps: number('fps'),
    motion: fields.motion || undefined,
    model: fields.model || undefined,
    background: json('background'),
    exports: json('exports'),
  });
}

/**
 * What an image-to-video job stores (`Job.stillJson`, lib/services/jobs/columns.ts): every option
 * with its default applied.
 */
export interface StillOptions {
  durationSeconds: number;
  fps: number;
  motion: Motion;
  model: ApiModel;
  background: z.infer<typeof Background> | null;
  exports: z.infer<typeof ExportItem>[] | null;
}

export function stillOptions(o: ImageToVideoOptions): StillOptions {
  return {
    durationSeconds: o.duration_seconds ?? STILL_DEFAULTS.durationSeconds,
    fps: o.fps ?? STILL_DEFAULTS.fps,
    motion: o.motion ?? STILL_DEFAULTS.motion,
    model: o.model,
    background: o.background ?? null,
    exports: o.exports ?? null,
  };
}

/** The frames of the clip. */
export const stillFrames = (o: Pick<StillOptions, 'durationSeconds' | 'fps'>) =>
  Math.max(1, Math.round(o.durationSeconds * o.fps));

export const ImageToVideoEcho = z
  .object({
    duration_seconds: z.number(),
    fps: z.number().int(),
    motion: z.enum(MOTIONS),
    model: z.string(),
  })
  .openapi('ImageToVideoOptions', {
    description: 'The clip the still becomes; the job then follows the normal lifecycle',
  });

export const ImageToVideoReceipt = JobReceipt.extend({ image_to_video: ImageToVideoEcho }).openapi(
  'ImageToVideoReceipt',
  {
    description: 'A job waiting for its still: PUT the image to upload_url, then start the job.',
  },
);
export const ImageToVideoUploaded = UploadedJob.extend({
  image_to_video: ImageToVideoEcho,
}).openapi('ImageToVideoUploaded', {
  description:
    'The still is stored and checked (image_url or multipart); ' +
    'start the job. length_seconds is the clip to be made.',
});

export const echoOf = (o: StillOptions): z.infer<typeof ImageToVideoEcho> => ({
  duration_seconds: o.durationSeconds,
  fps: o.fps,
  motion: o.motion,
  model: o.model,
});
