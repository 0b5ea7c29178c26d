import path from 'node:path';
import type { ApiModel } from '../../../engine/api-models';
import { refinementDebitKey, refinementRefundKey, refund } from '../../billing/ledger';
import { PermanentJobError, transact } from '../../queue';
import { refineVideo } from '../../refine/refine-video';
import { mediaInfoOf } from '../jobs/segment-job';
import type { WorkContext } from '../ports';
import { completedMaskVersion, readMask, storeMaskVersion, RUNNING } from '../masks/mask-versions';
import { promptColumn, statsColumn } from './columns';
import { withScratch } from '../../storage/scratch';
import type { Ports } from '../ports';

/**
 * The worker side of the Refinement lifecycle (request-refinement.ts has the API side):
 * apart, so the web process never loads the engine's inference code.
 */

/**
 * The `refine-mask` unit of work: refine the version it was created from into its own version,
 * store it, and make it active, if the active version is still the one it refined (activation
 * is refused while it runs, so only a race could change it). A finished refinement is left as
 * it is on a re-run.
 */
export async function runRefinement(refinementId: string, ctx: WorkContext): Promise<void> {
  const { db, storage } = ctx.ports;
  const r = await db.refinement.findUnique({ where: { id: refinementId }, include: { job: true } });
  if (!r || !RUNNING.includes(r.status)) return;
  const { job } = r;
  if (!job.sourceKey) throw new PermanentJobError('The job has no uploaded video.');
  const sourceKey = job.sourceKey;
  const from = await completedMaskVersion(ctx.ports, job, r.fromVersion);
  if (!from)
    throw new PermanentJobError(`Mask version ${r.fromVersion} of this job is not available.`);
  await db.refinement.update({
    where: { id: r.id },
    data: { status: 'processing', startedAt: r.startedAt ?? new Date() },
  });
  await db.maskVersion.updateMany({
    where: { jobId: job.id, version: r.version, status: 'queued' },
    data: { status: 'processing' },
  });
  const prompt = promptColumn.read(r.promptJson);
  await withScratch(`refine-${r.id}`, async (dir) => {
    const out = path.join(dir, 'mask.mkv');
    const result = await refineVideo({
      input: await storage.localFile(sourceKey, dir),
      info: mediaInfoOf(job),
      maskIn: await readMask(ctx.ports, from, dir),
      maskOut: out,
      model: r.model as ApiModel,
      op: r.op as 'add' | 'subtract',
      target:
        prompt.mode === 'text'
          ? { mode: 'text', concepts: prompt.concepts }
          : { mode: 'points', frame: prompt.frame, points: prompt.points },
      edgeCleanup: r.edgeCleanupSize,
      scratchDir: dir,
      signal: ctx.signal,
      runtime: await ctx.ports.runtime(),
    });
    await storeMaskVersion(ctx.ports, job.id, r.version, out, 'refinement');
    await transact(ctx.ports, async (tx) => {
      const moved = await tx.job.updateMany({
        where: { id: job.id, activeMaskVersion: r.fromVersion },
        data: { activeMaskVersion: r.version },
      });
      if (moved.count !== 1)
        throw new PermanentJobError(
          'The active mask changed while the refinement ran (it no longer ' +
            `is version ${r.fromVersion}).`,
        );
      await tx.refinement.update({
        where: { id: r.id },
        data: {
          status: 'completed',
          completedAt: new Date(),
          error: null,
          statsJson: statsColumn.write({
            seconds: result.seconds,
            stages: result.stageSeconds,
            ...result.counts,
          }),
        },
      });
    });
  });
}

/**
 * The refinement failed for good: marked failed with the reason, its version failed, its charge
 * refunded (idempotent).
 */
export async function failRefinement(
  ports: Ports,
  refinementId: string,
  message: string,
): Promise<void> {
  await transact(ports, async (tx) => {
    const r = await tx.refinement.findUnique({ where: { id: refinementId } });
    if (!r) return;
    const { count } = await tx.refinement.updateMany({
      where: { id: r.id, status: { in: RUNNING } },
      data: { status: 'failed', error: message, completedAt: new Date() },
    });
    if (!count) return;
    await tx.maskVersion.updateMany({
      where: { jobId: r.jobId, version: r.version },
      data: { status: 'failed' },
    });
    await refund(tx, {
      charged: refinementDebitKey(r.id),
      key: refinementRefundKey(r.id),
      note: 'Refund: mask refinement failed',
    });
  });
}
