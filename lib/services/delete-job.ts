import { db } from '../db/client';
import { storage, storageKeys } from '../storage';
import { jobNotFound } from './errors';

/**
 * Deletes one of the caller's jobs permanently: the row (masks, outputs and deliveries with
 * it) and then its files. Credits are not refunded; the ledger keeps its history.
 */
export async function deleteJob(userId: string, jobId: string): Promise<{ id: string; message: string }> {
  const { count } = await db().job.deleteMany({ where: { id: jobId, userId } });
  if (count === 0) throw jobNotFound();
  await storage().delete(storageKeys.jobPrefix(jobId));
  return { id: jobId, message: 'Job deleted' };
}
