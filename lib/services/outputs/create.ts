import type { Recipe } from '../../../engine/media/recipe';
import { formatIdOf } from '../../../engine/media/recipe';
import type { Output } from '../../db/generated/client';
import { enqueue, type Tx } from '../../queue';
import { recipeColumn, transformColumn } from './columns';

/**
 * The Output lifecycle, first part: an output is planned as a row holding its format,
 * transform, recipe and (when pinned) mask version, then rendered by a `render-output` (or
 * `render-batch`) unit of work (lib/services/renders/), validated, and served from its own record.
 *
 * role "primary" and "additional" are the start's outputs (the job completes only with them);
 * "export" outputs are made from a completed job and cost nothing (segmentation was paid).
 */
export type OutputRole = 'primary' | 'additional' | 'export';
export const START_ROLES: OutputRole[] = ['primary', 'additional'];

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
      transformJson: o.recipe.transform ? transformColumn.write(o.recipe.transform) : null,
      recipeJson: recipeColumn.write(o.recipe),
      maskVersion: o.maskVersion ?? null,
      status: 'queued',
    },
  });
}

/** Queues an output's render as its own unit of work (any worker on the cpu lane takes it). */
export async function enqueueRender(tx: Tx, outputId: string): Promise<void> {
  await enqueue(tx, 'render-output', { outputId }, { singletonKey: renderOutputKey(outputId) });
}
