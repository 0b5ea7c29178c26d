import { STICKER_MAX_INPUT_SECONDS, type OutputFormat } from '../../../engine/formats';
import { formatOf, type Recipe } from '../../../engine/media/recipe';
import type { Job } from '../../db/generated/client';
import { ServiceError } from '../../errors';
import { unavailableReason } from '../../media/capabilities';
import { assertTransformFits, sourceBounds } from './transform-bounds';

/** An output asked for, with the request field its transform came from (named in a refusal). */
export interface RequestedOutput {
  recipe: Recipe;
  transformField: string;
}

/**
 * Refuses, before anything is charged or queued, outputs that cannot be made from this job's
 * upload on this host: stickers of a source too long, formats this host cannot encode, and
 * transforms that do not fit the video. Start, exports and batch exports all ask this.
 */
export async function assertRenderable(
  job: Pick<Job, 'lengthSeconds' | 'width' | 'height'>,
  outputs: RequestedOutput[],
): Promise<void> {
  const formats = outputs.map((o) => formatOf(o.recipe));
  assertStickerSource(formats, job.lengthSeconds);
  assertSourceLength(formats, job.lengthSeconds);
  await assertFormatsAvailable(formats);
  for (const o of outputs)
    assertTransformFits(o.recipe.transform, sourceBounds(job), o.transformField);
}

/**
 * Refuses, before anything is charged or queued, an output this host cannot make (e.g. hevc_alpha
 * without a capable encoder).
 */
async function assertFormatsAvailable(formats: Iterable<OutputFormat>): Promise<void> {
  for (const format of new Set(formats)) {
    const reason = await unavailableReason(format);
    if (reason)
      throw new ServiceError('invalid', `${format.id} is not available on this server`, reason);
  }
}

/**
 * Refuses sticker formats for a source over 30 s (spec, "Sticker input duration"), before anything
 * is charged or queued.
 */
function assertStickerSource(formats: Iterable<OutputFormat>, lengthSeconds: number | null): void {
  const stickers = [...new Set(formats)].filter((f) => f.sticker);
  if (!stickers.length || lengthSeconds === null || lengthSeconds <= STICKER_MAX_INPUT_SECONDS)
    return;
  throw new ServiceError(
    'invalid',
    `Sticker formats take videos up to ${STICKER_MAX_INPUT_SECONDS} ` +
      `seconds; this one is ${lengthSeconds.toFixed(1)} s`,
    `Asked for: ${stickers.map((f) => f.id).join(', ')}. Trim the ` +
      `video to ${STICKER_MAX_INPUT_SECONDS} s or less and upload it ` +
      'as a new job.',
  );
}

/**
 * Refuses a format with a length cap (a Lottie embeds every frame) for a longer source, before
 * anything is charged or queued.
 */
function assertSourceLength(formats: Iterable<OutputFormat>, lengthSeconds: number | null): void {
  if (lengthSeconds === null) return;
  for (const f of new Set(formats)) {
    if (f.maxSeconds === undefined || lengthSeconds <= f.maxSeconds) continue;
    throw new ServiceError(
      'invalid',
      `${f.id} takes videos up to ${f.maxSeconds} seconds; this one ` +
        `is ${lengthSeconds.toFixed(1)} s`,
      `${f.label} embeds every frame as an image. Trim the video to ` +
        `${f.maxSeconds} s or less and upload it as a new job, or ` +
        'choose webm_vp9.',
    );
  }
}
