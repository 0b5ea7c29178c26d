import type { Recipe } from '../../../engine/media/recipe';
import { MediaError } from '../../media/ffmpeg';
import { renderBatch } from '../../media/render';
import type { WorkContext } from '../ports';
import { withScratch } from '../../storage/scratch';
import { completeOutput, recipeOf, renderInputs, startOutputs } from './render-output';
import type { Ports } from '../ports';

type Transparent = Recipe & { kind: 'transparent' };

/**
 * A `use_gpu` batch's one unit of work: the original and the mask are read once and decoded
 * once for every export whose format a single encoder branch makes (lib/media/render.ts
 * `renderBatch`); each export is validated, stored and completed or failed on its own. A re-run
 * renders only what is not completed yet.
 */
export async function renderStoredBatch(batchId: string, ctx: WorkContext): Promise<void> {
  const { db } = ctx.ports;
  const batch = await db.batch.findUnique({ where: { id: batchId }, include: { job: true } });
  if (!batch || batch.job.status !== 'completed') return;
  const pending = await db.output.findMany({
    where: { batchId, status: { in: ['queued', 'processing'] } },
    orderBy: { createdAt: 'asc' },
  });
  if (!pending.length) return;
  // Outputs of one batch pin one mask version (set when the batch was made).
  const maskVersion = pending[0]!.maskVersion;
  await withScratch(`batch-${batchId}`, async (dir) => {
    const inputs = await renderInputs(ctx.ports, batch.job, maskVersion, dir);
    await startOutputs(
      ctx.ports,
      pending.map((o) => o.id),
      inputs.version,
    );
    const results = await renderBatch({
      ...inputs,
      signal: ctx.signal,
      outDir: dir,
      outputs: pending.map((o) => ({
        recipe: recipeOf(o, batch.job) as Transparent,
        basename: o.id,
      })),
    });
    for (const [i, result] of results.entries()) {
      const output = pending[i]!;
      if (result.ok) {
        await completeOutput(ctx.ports, output, result.output);
      } else {
        const message =
          result.error instanceof MediaError
            ? result.error.message
            : 'The export could not be rendered.';
        if (!(result.error instanceof MediaError))
          console.error(`[worker] batch ${batchId} export ${output.id} failed`, result.error);
        await db.output.updateMany({
          where: { id: output.id, status: 'processing' },
          data: { status: 'failed', error: message, completedAt: new Date() },
        });
      }
    }
  });
}

/** The batch failed for good (its attempts are used up): what is left unfinished fails with it. */
export async function failStoredBatch(
  ports: Ports,
  batchId: string,
  message: string,
): Promise<void> {
  await ports.db.output.updateMany({
    where: { batchId, status: { in: ['queued', 'processing'] } },
    data: { status: 'failed', error: message, completedAt: new Date() },
  });
}
