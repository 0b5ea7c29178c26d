import { refundJob } from '../../billing/ledger';
import { transact } from '../../queue';
import { START_ROLES } from '../outputs/create';
import { classicBackground } from '../outputs/recipes';
import { deliverDueNow } from '../webhooks/deliver';
import { scheduleWebhook } from '../webhooks/schedule';
import { exportIdOf, startedRequest } from './started-request';
import type { Ports } from '../ports';

/**
 * The Job lifecycle's ends. A job completes when its segmentation and every output its start
 * asked for are done; it fails (refunded) when any of them fails for good.
 */

function log(what: string, e: unknown): void {
  console.error(`[worker] ${what}: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * Completes the job if every start output is completed: the job.completed delivery is recorded
 * and its first attempt finished (with any due job.started attempt) before the job reads
 * "completed", as clients expect. Safe to call from each output as it finishes, concurrently
 * and again after a crash: the event is scheduled once.
 */
export async function finishJobIfReady(ports: Ports, jobId: string): Promise<void> {
  const ready = await transact(ports, async (tx) => {
    // Touching the job first takes the write lock (SQLite) or the row lock (PostgreSQL) before
    // the reads, so two outputs finishing together see each other's completion.
    const { count } = await tx.job.updateMany({
      where: { id: jobId, status: 'processing' },
      data: { updatedAt: new Date() },
    });
    if (!count) return false;
    const pending = await tx.output.count({
      where: { jobId, role: { in: START_ROLES }, status: { not: 'completed' } },
    });
    if (pending) return false;
    const already = await tx.webhookDelivery.findFirst({
      where: { jobId, eventType: 'job.completed', attemptNumber: 1 },
      select: { id: true },
    });
    if (!already) {
      const job = await tx.job.findUniqueOrThrow({ where: { id: jobId } });
      const primary = await tx.output.findFirst({
        where: { jobId, role: 'primary' },
        select: { id: true },
      });
      const request = startedRequest(job);
      await scheduleWebhook(tx, job, 'job.completed', {
        exportId: exportIdOf(request, primary?.id),
        background: classicBackground(request.background),
      });
    }
    return true;
  });
  if (!ready) return;
  await deliverDueNow(ports, jobId);
  await ports.db.job.updateMany({
    where: { id: jobId, status: 'processing' },
    data: { status: 'completed', completedAt: new Date(), message: null },
  });
}

/**
 * Fails the job for good: status failed with the reason, the charge refunded, unfinished
 * outputs marked failed and job.failed announced, in one transaction (idempotent: a failed job
 * stays put).
 */
export async function failJob(ports: Ports, jobId: string, message: string): Promise<void> {
  const changed = await transact(ports, async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id: jobId, status: 'processing' },
      data: { status: 'failed', message, completedAt: new Date() },
    });
    if (count === 0) return false;
    await refundJob(tx, jobId);
    await tx.output.updateMany({
      where: { jobId, status: { in: ['queued', 'processing'] } },
      data: { status: 'failed', error: message },
    });
    await scheduleWebhook(
      tx,
      await tx.job.findUniqueOrThrow({ where: { id: jobId } }),
      'job.failed',
    );
    return true;
  });
  // The queue delivers it otherwise.
  if (changed)
    await deliverDueNow(ports, jobId).catch((e: unknown) =>
      log(`inline job.failed delivery for ${jobId} failed`, e),
    );
}

/** Sends job.started before the long work, not after it (a failure leaves it to the queue). */
export async function announceStart(ports: Ports, jobId: string): Promise<void> {
  await deliverDueNow(ports, jobId).catch((e: unknown) =>
    log(`job.started delivery for ${jobId} failed`, e),
  );
}
