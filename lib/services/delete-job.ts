import { db } from '../db/client';
import { queueProvider } from '../queue';
import { storage, storageKeys } from '../storage';
import { jobNotFound } from './errors';

/**
 * Deletes one of the caller's jobs permanently, running or not: in one transaction its queue
 * rows (processing and webhook deliveries) and the row itself (masks, outputs and deliveries
 * with it), then its files. A worker processing it loses its lease at the next heartbeat and
 * aborts; until then storage refuses its writes (lib/storage/job-guard.ts). Credits are not
 * refunded; the ledger keeps its history.
 */
export async function deleteJob(userId: string, jobId: string): Promise<{ id: string; message: string }> {
  const deleted = await db().$transaction(async (tx) => {
    // Writing first takes SQLite's write lock before the reads (see lib/db/client.ts).
    const { count } = await tx.job.updateMany({ where: { id: jobId, userId }, data: { updatedAt: new Date() } });
    if (count === 0) return false;
    const deliveries = await tx.webhookDelivery.findMany({ where: { jobId }, select: { id: true } });
    await queueProvider().cancel(tx, [jobId, ...deliveries.map((d) => d.id)]);
    await tx.job.delete({ where: { id: jobId } });
    return true;
  });
  if (!deleted) throw jobNotFound();
  await storage().delete(storageKeys.jobPrefix(jobId));
  return { id: jobId, message: 'Job deleted' };
}
