import { storageKeys } from '../../storage';
import type { Ports } from '../ports';

/**
 * Deletes one of the account's jobs that never started (a refused upload, "Choose another", a
 * cancelled upload). Started jobs are left alone: they have a charge and a result to keep.
 */
export async function discardUnstartedJob(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<void> {
  const { count } = await ports.db.job.deleteMany({
    where: { id: jobId, userId, status: { in: ['created', 'uploaded'] } },
  });
  if (count) await ports.storage.delete(storageKeys.jobPrefix(jobId));
}

/** Undoes a job whose creation failed half-way: its row and whatever files it had. */
export async function undoJobCreation(ports: Ports, jobId: string): Promise<void> {
  await ports.db.job.delete({ where: { id: jobId } }).catch(() => undefined);
  await ports.storage.delete(storageKeys.jobPrefix(jobId));
}
