import type { Ports } from '../ports';

/**
 * One of the account's uploaded, not yet started jobs (to continue it in the new-job form), or
 * null.
 */
export async function getUploadedJob(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ jobId: string; name: string; size: number } | null> {
  const job = await ports.db.job.findFirst({
    where: { id: jobId, userId, status: 'uploaded' },
    select: { id: true, filename: true, sourceBytes: true },
  });
  return job ? { jobId: job.id, name: job.filename, size: job.sourceBytes ?? 0 } : null;
}
