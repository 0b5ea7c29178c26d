import { db } from '../../db/client';
import { storage, storageKeys } from '../../storage';

/**
 * Deletes one of the account's jobs that never started (a refused upload, "Choose another", a
 * cancelled upload). Started jobs are left alone: they have a charge and a result to keep.
 */
export async function discardUnstartedJob(userId: string, jobId: string): Promise<void> {
  const { count } = await db().job.deleteMany({
    where: { id: jobId, userId, status: { in: ['created', 'uploaded'] } },
  });
  if (count) await storage().delete(storageKeys.jobPrefix(jobId));
}

/** Undoes a job whose creation failed half-way: its row and whatever files it had. */
export async function undoJobCreation(jobId: string): Promise<void> {
  await db()
    .job.delete({ where: { id: jobId } })
    .catch(() => undefined);
  await storage().delete(storageKeys.jobPrefix(jobId));
}
