import { transaction } from '../../db/transaction';
import { dropOutbox } from '../../queue';
import { storageKeys } from '../../storage';
import { jobNotFound } from '../../errors';
import type { Ports } from '../ports';

/**
 * Deletes one of the caller's jobs permanently, running or not: in one transaction its unsent
 * outbox rows and the row itself (masks, outputs, batches and deliveries with it), then the
 * queue's rows that name the job or one of those (segmentation, renders, batches, webhook
 * deliveries), then its files. A worker processing it loses its lease at the next heartbeat and
 * aborts; until then storage refuses its writes (lib/storage/job-guard.ts), and a handler that
 * starts on a row cancelled too late finds no job and does nothing. Credits are not refunded;
 * the ledger keeps its history.
 */
export async function deleteJob(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ id: string; message: string }> {
  const work = await transaction(ports.db, async (tx) => {
    // Writing first takes SQLite's write lock before the reads (see lib/db/client.ts).
    const { count } = await tx.job.updateMany({
      where: { id: jobId, userId },
      data: { updatedAt: new Date() },
    });
    if (count === 0) return null;
    const select = { where: { jobId }, select: { id: true } } as const;
    const named = [
      jobId,
      ...[
        ...(await tx.output.findMany(select)),
        ...(await tx.batch.findMany(select)),
        ...(await tx.webhookDelivery.findMany(select)),
      ].map((r) => r.id),
    ];
    await dropOutbox(tx, named);
    await tx.job.delete({ where: { id: jobId } });
    return named;
  });
  if (!work) throw jobNotFound();
  await ports.queue.cancel(work);
  await ports.storage.delete(storageKeys.jobPrefix(jobId));
  return { id: jobId, message: 'Job deleted' };
}
