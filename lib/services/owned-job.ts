import type { Job } from '../db/generated/client';
import { jobNotFound } from '../errors';
import type { Ports } from './ports';

/** The caller's job `jobId`; not_found (404) when there is none, or it is someone else's. */
export async function ownedJob(ports: Ports, userId: string, jobId: string): Promise<Job> {
  const job = await ports.db.job.findFirst({ where: { id: jobId, userId } });
  if (!job) throw jobNotFound();
  return job;
}
