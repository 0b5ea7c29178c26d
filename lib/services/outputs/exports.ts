import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { isStickerFormat, outputFormat, type StickerFormat } from '../../../engine/formats';
import type { Job } from '../../db/generated/client';
import { jobNotFound, ServiceError } from '../../errors';
import { enqueue, transact } from '../../queue';
import { cleanTransform, exportRecipe, planExports } from './recipes';
import type {
  BatchRecord,
  CreateBatchRequest,
  CreateExportRequest,
  ExportRecord,
} from '../../schemas/exports';
import { completedMaskVersion } from '../masks/mask-versions';
import { createOutput, enqueueRender } from './create';
import { assertRenderable } from './renderable';
import { batchRecord, exportRecord } from './records';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

/**
 * Exports and batches from a completed job: new renders of its stored original and a mask
 * version, at no charge (the segmentation was paid at start; docs/api.md "Exports").
 */

export const EXPORT_NOT_FOUND = 'Export not found or does not belong to user';
export const BATCH_NOT_FOUND = 'Batch not found or does not belong to user';

/** The caller's completed job, and the mask version asked for (the active one when none is). */
async function exportableJob(
  ports: Ports,
  userId: string,
  jobId: string,
  maskVersion: number | null | undefined,
): Promise<{ job: Job; version: number }> {
  const job = await ownedJob(ports, userId, jobId);
  if (job.status !== 'completed') {
    throw new ServiceError(
      'invalid',
      `Exports need a completed job; this one is ${job.status}`,
      'Wait for the job to complete (GET /v1/jobs/{id}/status), then export.',
    );
  }
  const mask = await completedMaskVersion(ports, job, maskVersion ?? null);
  if (!mask) {
    const versions = (
      await ports.db.maskVersion.findMany({
        where: { jobId, status: 'completed' },
        select: { version: true },
        orderBy: { version: 'asc' },
      })
    ).map((m) => m.version);
    throw new ServiceError(
      'invalid',
      `mask_version ${maskVersion} does not exist for this job`,
      `Completed mask versions: ${versions.join(', ') || 'none'}.`,
    );
  }
  return { job, version: mask.version };
}

/** `POST /v1/jobs/{id}/exports`: one export, queued; its receipt. */
export async function createExport(
  ports: Ports,
  userId: string,
  jobId: string,
  req: CreateExportRequest,
): Promise<ExportRecord> {
  const { job, version } = await exportableJob(ports, userId, jobId, req.mask_version);
  const recipe = exportRecipe({ format: req.format!, transform: cleanTransform(req.transform) });
  await assertRenderable(job, [{ recipe, transformField: 'transform' }]);
  const output = await transact(ports, async (tx) => {
    const created = await createOutput(tx, {
      jobId: job.id,
      role: 'export',
      recipe,
      maskVersion: version,
    });
    await enqueueRender(tx, created.id);
    return created;
  });
  return exportRecord(ports, output, job.filename);
}

/** `GET /v1/exports/{id}`: one of the caller's exports (any output of their jobs). */
export async function getExport(
  ports: Ports,
  userId: string,
  exportId: string,
): Promise<ExportRecord> {
  const output = await ports.db.output.findFirst({
    where: { id: exportId, job: { userId } },
    include: { job: { select: { filename: true } } },
  });
  if (!output) throw new ServiceError('not_found', EXPORT_NOT_FOUND);
  return exportRecord(ports, output, output.job.filename);
}

/**
 * `POST /v1/jobs/{id}/batch-exports`: several exports with start's `exports` rules (one per
 * size, deduplicated, at most 50). By default each is its own queue row any worker may take;
 * `use_gpu` makes them one task that decodes the original and the mask once for all of them,
 * on the gpu lane (or any worker when no worker has a GPU). Sticker formats take part in both:
 * under `use_gpu` their masters are written by that one decode and their attempts run in the
 * same task (docs/outputs.md, "Stickers").
 */
export async function createBatchExport(
  ports: Ports,
  userId: string,
  jobId: string,
  req: CreateBatchRequest,
): Promise<BatchRecord> {
  const { job, version } = await exportableJob(ports, userId, jobId, req.mask_version);
  const recipes = planExports(req.exports ?? req.profiles ?? []).map(exportRecipe);
  await assertRenderable(
    job,
    recipes.map((recipe) => ({ recipe, transformField: 'exports.transform' })),
  );
  const useGpu = req.use_gpu ?? false;
  // The rows as created (queued), not read back: a worker may already have claimed the first.
  const { batch, outputs } = await transact(ports, async (tx) => {
    const batch = await tx.batch.create({ data: { jobId: job.id, useGpu } });
    const outputs = [];
    for (const recipe of recipes)
      outputs.push(
        await createOutput(tx, {
          jobId: job.id,
          role: 'export',
          recipe,
          batchId: batch.id,
          maskVersion: version,
        }),
      );
    if (useGpu)
      await enqueue(
        tx,
        'render-batch',
        { batchId: batch.id },
        { singletonKey: `render-batch:${batch.id}` },
      );
    else for (const o of outputs) await enqueueRender(tx, o.id);
    return { batch, outputs };
  });
  return batchRecord(ports, batch, outputs, job.filename);
}

/** `GET /v1/batches/{id}`: one of the caller's batches with every export's full record. */
export async function getBatch(
  ports: Ports,
  userId: string,
  batchId: string,
): Promise<BatchRecord> {
  const batch = await ports.db.batch.findFirst({
    where: { id: batchId, job: { userId } },
    include: { job: { select: { filename: true } } },
  });
  if (!batch) throw new ServiceError('not_found', BATCH_NOT_FOUND);
  const outputs = await ports.db.output.findMany({
    where: { batchId },
    orderBy: { createdAt: 'asc' },
  });
  return batchRecord(ports, batch, outputs, batch.job.filename);
}

/**
 * Every output of one of the caller's jobs other than the start's primary one, oldest first (the
 * dashboard's Exports panel).
 */
export async function listJobExports(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ exports: ExportRecord[]; maskVersions: number[] }> {
  const job = await ports.db.job.findFirst({
    where: { id: jobId, userId },
    include: { masks: { where: { status: 'completed' }, orderBy: { version: 'asc' } } },
  });
  if (!job) throw jobNotFound();
  const outputs = await ports.db.output.findMany({
    where: { jobId, role: { not: 'primary' } },
    orderBy: { createdAt: 'asc' },
  });
  return {
    exports: await Promise.all(outputs.map((o) => exportRecord(ports, o, job.filename))),
    maskVersions: job.masks.map((m) => m.version),
  };
}

/**
 * The job's finished stickers in one ZIP (the dashboard's "Download all"): the newest completed
 * export of each sticker format, named `<video>-<format>.<ext>`, stored as they are.
 */
export async function stickersZip(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ filename: string; stream: Readable }> {
  const job = await ownedJob(ports, userId, jobId);
  const done = await ports.db.output.findMany({
    where: { jobId, status: 'completed', storageKey: { not: null } },
    orderBy: { completedAt: 'desc' },
  });
  const newest = new Map<StickerFormat, (typeof done)[number]>();
  for (const o of done)
    if (isStickerFormat(o.format) && !newest.has(o.format)) newest.set(o.format, o);
  if (!newest.size) throw new ServiceError('not_found', 'This job has no finished stickers yet');
  const stem = path.parse(job.filename).name || 'sticker';
  const zip = new yazl.ZipFile();
  for (const [format, o] of newest) {
    zip.addReadStream(
      await ports.storage.openRead(o.storageKey!),
      `${stem}-${format}.${outputFormat(format).extension}`,
      { compress: false, mtime: o.completedAt ?? o.createdAt },
    );
  }
  zip.end();
  return { filename: `${stem}-stickers.zip`, stream: zip.outputStream as Readable };
}
