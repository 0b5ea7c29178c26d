import { storageKeys } from '../../storage';
import type { Ports } from '../ports';

/** A job whose video never arrived is deleted after a day (its upload URL lapsed after an hour). */
export const CREATED_JOB_TTL_MS = 24 * 60 * 60 * 1000;
/** An uploaded job that was never started is deleted 7 days after its upload. */
export const UPLOADED_JOB_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes jobs that were abandoned before they started, with their files: nothing was charged
 * for them, and they would otherwise keep uploads on disk for ever. Returns how many went.
 */
export async function expireAbandonedJobs(ports: Ports): Promise<number> {
  const now = ports.clock.now();
  const stale = await ports.db.job.findMany({
    where: {
      OR: [
        { status: 'created', createdAt: { lt: new Date(now.getTime() - CREATED_JOB_TTL_MS) } },
        {
          status: 'uploaded',
          OR: [
            { uploadedAt: { lt: new Date(now.getTime() - UPLOADED_JOB_TTL_MS) } },
            { uploadedAt: null, createdAt: { lt: new Date(now.getTime() - UPLOADED_JOB_TTL_MS) } },
          ],
        },
      ],
    },
    select: { id: true, status: true },
    take: 500,
  });
  let deleted = 0;
  for (const job of stale) {
    // Only while still unstarted: a start that raced this sweep keeps its job.
    const { count } = await ports.db.job.deleteMany({ where: { id: job.id, status: job.status } });
    if (!count) continue;
    await ports.storage.delete(storageKeys.jobPrefix(job.id));
    deleted++;
  }
  return deleted;
}
