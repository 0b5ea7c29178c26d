import { STICKER_MAX_INPUT_SECONDS, type OutputFormat } from '../../../engine/formats';
import type { Recipe } from '../../../engine/media/recipe';
import { formatIdOf } from '../../../engine/media/recipe';
import type { Job, Output } from '../../db/generated/client';
import { ServiceError } from '../../errors';
import { unavailableReason } from '../../media/capabilities';
import { enqueue, type Tx } from '../../queue';
import { exportRecipe, toRecipe } from './recipes';
import { startedRequest } from '../../schemas/stored-request';

/**
 * The Output lifecycle, first part: an output is planned as a row holding its format,
 * transform, recipe and (when pinned) mask version, then rendered by a `render-output` (or
 * `render-batch`) unit of work, validated, and served from its own record.
 *
 * role "primary" and "additional" are the start's outputs (the job completes only with them);
 * "export" outputs are made from a completed job and cost nothing (segmentation was paid).
 */
export type OutputRole = 'primary' | 'additional' | 'export';
export const START_ROLES: OutputRole[] = ['primary', 'additional'];

/** Refuses, before anything is charged or queued, an output this host cannot make (e.g. hevc_alpha without a capable encoder). */
export async function assertFormatsAvailable(formats: Iterable<OutputFormat>): Promise<void> {
  for (const format of new Set(formats)) {
    const reason = await unavailableReason(format);
    if (reason) throw new ServiceError('invalid', `${format.id} is not available on this server`, reason);
  }
}

/** Refuses sticker formats for a source over 30 s (spec, "Sticker input duration"), before anything is charged or queued. */
export function assertStickerSource(formats: Iterable<OutputFormat>, lengthSeconds: number | null): void {
  const stickers = [...new Set(formats)].filter((f) => f.sticker);
  if (!stickers.length || lengthSeconds === null || lengthSeconds <= STICKER_MAX_INPUT_SECONDS) return;
  throw new ServiceError(
    'invalid',
    `Sticker formats take videos up to ${STICKER_MAX_INPUT_SECONDS} seconds; this one is ${lengthSeconds.toFixed(1)} s`,
    `Asked for: ${stickers.map((f) => f.id).join(', ')}. Trim the video to ${STICKER_MAX_INPUT_SECONDS} s or less and upload it as a new job.`,
  );
}

export const renderOutputKey = (outputId: string) => `render-output:${outputId}`;

export async function createOutput(
  tx: Tx,
  o: {
    jobId: string;
    role: OutputRole;
    recipe: Recipe;
    batchId?: string | null;
    maskVersion?: number | null;
  },
): Promise<Output> {
  return tx.output.create({
    data: {
      jobId: o.jobId,
      role: o.role,
      batchId: o.batchId ?? null,
      format: formatIdOf(o.recipe),
      transformJson: o.recipe.transform ? JSON.stringify(o.recipe.transform) : null,
      recipeJson: JSON.stringify(o.recipe),
      maskVersion: o.maskVersion ?? null,
      status: 'queued',
    },
  });
}

/** Queues an output's render as its own unit of work (any worker on the cpu lane takes it). */
export async function enqueueRender(tx: Tx, outputId: string): Promise<void> {
  await enqueue(tx, 'render-output', { outputId }, { singletonKey: renderOutputKey(outputId) });
}

/**
 * The recipe an output renders by: the one stored when it was created. Rows from before recipes
 * were stored get theirs from the job's start request (primary) or their format and transform.
 */
export function recipeOf(output: Output, job: Job): Recipe {
  if (output.recipeJson) return JSON.parse(output.recipeJson) as Recipe;
  if (output.role === 'primary') return toRecipe(startedRequest(job).background);
  const transform = output.transformJson
    ? (JSON.parse(output.transformJson) as Recipe['transform'])
    : undefined;
  return exportRecipe({
    format: output.format as Extract<Recipe, { kind: 'transparent' }>['format'],
    transform,
  });
}
