import os from 'node:os';
import { env } from '../../env';
import type { Job, Output } from '../../db/generated/client';
import type { RenderedOutput } from '../../media/render';
import { renderOutput } from '../../media/render';
import { PermanentJobError } from '../../queue';
import { storageKeys } from '../../storage';
import { apiModel } from '../../../engine/api-models';
import { EXPORT_FORMATS } from '../../../engine/formats';
import type { Recipe } from '../../../engine/media/recipe';
import { z } from 'zod';
import { failJob, finishJobIfReady } from '../jobs/finish-job';
import { ProgressWriter } from '../jobs/progress';
import { startedRequest } from '../jobs/started-request';
import { mediaInfoOf, type PrimaryRender } from '../jobs/segment-job';
import type { WorkContext } from '../ports';
import { completedMaskVersion, readMask } from '../masks/mask-versions';
import { withScratch } from '../../storage/scratch';
import { metadataColumn, recipeColumn, storedTransform } from '../outputs/columns';
import { START_ROLES, type OutputRole } from '../outputs/create';
import { exportRecipe, toRecipe } from '../outputs/recipes';
import type { Ports } from '../ports';

const isStartOutput = (o: Pick<Output, 'role'>) => START_ROLES.includes(o.role as OutputRole);

/**
 * The job's original, the mask version the output renders from, and what the worker's probe found.
 */
export async function renderInputs(
  ports: Ports,
  job: Job,
  maskVersion: number | null,
  dir: string,
) {
  if (!job.sourceKey) throw new PermanentJobError('The job has no uploaded video.');
  const mask = await completedMaskVersion(ports, job, maskVersion);
  if (!mask)
    throw new PermanentJobError(
      `Mask version ${maskVersion ?? job.activeMaskVersion ?? '?'} of this job is not available.`,
    );
  return {
    version: mask.version,
    info: mediaInfoOf(job),
    source: await ports.storage.localFile(job.sourceKey, dir),
    mask: await readMask(ports, mask, dir),
    edgeColour: apiModel(startedRequest(job).model).edgeColour,
    storage: ports.storage,
  };
}

/** Stores a rendered, validated file and its poster, and marks the output completed. */
export async function completeOutput(
  ports: Ports,
  output: Output,
  rendered: RenderedOutput,
): Promise<void> {
  const storageKey = storageKeys.output(output.jobId, output.id, rendered.extension);
  await ports.storage.putFile(storageKey, rendered.file, { move: true });
  let posterKey: string | null = null;
  if (rendered.poster) {
    posterKey = storageKeys.poster(output.jobId, output.id);
    await ports.storage.putFile(posterKey, rendered.poster, { move: true });
  }
  await ports.db.output.updateMany({
    where: { id: output.id, status: 'processing' },
    data: {
      status: 'completed',
      storageKey,
      posterKey,
      metadataJson: metadataColumn.write(rendered.metadata),
      error: null,
      completedAt: new Date(),
    },
  });
}

/** Marks outputs taken by a worker, pinning the mask version they render from. */
export async function startOutputs(
  ports: Ports,
  ids: string[],
  maskVersion: number,
): Promise<void> {
  await ports.db.output.updateMany({
    where: { id: { in: ids }, status: { in: ['queued', 'processing'] } },
    data: { status: 'processing', startedAt: new Date(), maskVersion },
  });
}

/**
 * One output's unit of work: render its stored recipe from the job's original and the mask
 * version (pinned, or the active one), validate, store with a poster, mark completed. A start
 * output reports the job's progress and, once done, lets the job complete. Re-runs are safe:
 * a completed output only re-checks its job.
 */
export async function renderStoredOutput(outputId: string, ctx: WorkContext): Promise<void> {
  const output = await ctx.ports.db.output.findUnique({
    where: { id: outputId },
    include: { job: true },
  });
  if (!output || output.status === 'failed') return;
  const { job } = output;
  const forStart = isStartOutput(output);
  if (output.status === 'completed') {
    if (forStart) await finishJobIfReady(ctx.ports, job.id);
    return;
  }
  if (forStart ? job.status !== 'processing' : job.status !== 'completed') return;
  const progress = forStart
    ? new ProgressWriter(ctx.ports, job.id, job.frameCount ?? 0, (e) =>
        console.error(`[worker] progress write for ${job.id} failed: ${String(e)}`),
      )
    : null;
  progress?.stage(output.role === 'primary' ? 'render' : 'exports');
  try {
    await withScratch(`output-${outputId}`, async (dir) => {
      const inputs = await renderInputs(ctx.ports, job, output.maskVersion, dir);
      await startOutputs(ctx.ports, [output.id], inputs.version);
      const rendered = await renderOutput({
        ...inputs,
        recipe: recipeOf(output, job),
        outDir: dir,
        basename: 'output',
        signal: ctx.signal,
        poster: true,
        onProgress: progress ? (frames) => progress.count(frames) : undefined,
      });
      await completeOutput(ctx.ports, output, rendered);
    });
  } finally {
    await progress?.flush();
  }
  if (forStart) await finishJobIfReady(ctx.ports, job.id);
}

/**
 * An output failed for good. A start output fails its job (refunded, job.failed); an export
 * made later only fails itself.
 */
export async function failStoredOutput(
  ports: Ports,
  outputId: string,
  message: string,
): Promise<void> {
  const output = await ports.db.output.findUnique({ where: { id: outputId } });
  if (!output) return;
  if (isStartOutput(output)) return failJob(ports, output.jobId, message);
  await ports.db.output.updateMany({
    where: { id: outputId, status: { in: ['queued', 'processing'] } },
    data: { status: 'failed', error: message, completedAt: new Date() },
  });
}

/**
 * The primary output rendered while segmenting (lib/segment/render-while-segmenting.ts) completes
 * as any render does.
 */
/**
 * Whether this worker renders a job's primary output while segmenting it (RENDER_WHILE_SEGMENTING;
 * `auto`: with more than 2 CPUs). On a quiet 2-CPU host both cores were busy segmenting already:
 * the 1080p jobs took 0.91-1.02x the time of rendering after, holding 0.5-0.9 GiB more.
 */
export function rendersWhileSegmenting(): boolean {
  const setting = env().RENDER_WHILE_SEGMENTING;
  return setting === 'auto' ? os.availableParallelism() > 2 : setting === 'on';
}

export const primaryRender: PrimaryRender = {
  recipe: recipeOf,
  async complete(ports, output, rendered, maskVersion) {
    await startOutputs(ports, [output.id], maskVersion);
    await completeOutput(ports, output, rendered);
  },
};

/**
 * The recipe an output renders by: the one stored when it was created. Rows from before recipes
 * were stored get theirs from the job's start request (primary) or their format and transform.
 */
export function recipeOf(output: Output, job: Job): Recipe {
  if (output.recipeJson) return recipeColumn.read(output.recipeJson);
  if (output.role === 'primary') return toRecipe(startedRequest(job).background);
  return exportRecipe({
    format: z.enum(EXPORT_FORMATS).parse(output.format),
    transform: storedTransform(output) ?? undefined,
  });
}
