import { type Prisma } from '../../db/client';
import type { Background } from '../../schemas/background';
import { JOB_STATUSES } from '../../schemas/jobs';
import { publicStatus } from './get-job-status';
import { readProgress, type StoredProgress } from './progress';
import { startedRequest } from './started-request';
import type { Ports } from '../ports';

export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobListItem {
  id: string;
  filename: string;
  status: JobStatus;
  createdAt: Date;
  lengthSeconds: number | null;
  width: number | null;
  height: number | null;
  model: string | null;
  outputFormat: string | null;
  /** The start's background options (type, colour, blur mode…), to describe the output. */
  background: Background | null;
  creditsUsed: number | null;
  message: string | null;
  /** 0..1 while processing, when the worker reported frames. */
  progress: number | null;
  thumbnailUrl: string | null;
  transparentThumbnailUrl: string | null;
  /** A frame of the result itself when it is not transparent (colour, blur, composition). */
  posterUrl: string | null;
}

export interface JobListFilter {
  /**
   * A status, or "not-started" for jobs created or uploaded but never started. Without it, those
   * are left out.
   */
  status?: string;
  query?: string;
  page?: number;
}

export const JOBS_PAGE_SIZE = 24;

/** The filter value for jobs that were created or uploaded but never started. */
export const NOT_STARTED = 'not-started';

/** How far a running job is, 0..1, once the worker has counted frames. */
function fractionDone(p: StoredProgress | null): number | null {
  return p && p.framesDone !== null && p.framesTotal !== null && p.framesTotal > 0
    ? Math.min(1, p.framesDone / p.framesTotal)
    : null;
}

/** The account's jobs for the dashboard list, newest first, filtered by status and filename. */
export async function listJobs(
  ports: Ports,
  userId: string,
  filter: JobListFilter = {},
): Promise<{ jobs: JobListItem[]; hasMore: boolean }> {
  const where: Prisma.JobWhereInput = { userId };
  if (filter.status === NOT_STARTED) where.status = { in: ['created', 'uploaded'] };
  else if (filter.status && (JOB_STATUSES as readonly string[]).includes(filter.status))
    where.status = filter.status;
  else where.status = { notIn: ['created', 'uploaded'] };
  const query = filter.query?.trim();
  if (query) where.filename = { contains: query };
  const page = Math.max(0, filter.page ?? 0);
  const rows = await ports.db.job.findMany({
    where,
    orderBy: { createdAt: 'desc' },
    skip: page * JOBS_PAGE_SIZE,
    take: JOBS_PAGE_SIZE + 1,
    include: { outputs: { where: { role: 'primary' }, select: { posterKey: true }, take: 1 } },
  });
  const sign = (key: string | null) =>
    key ? ports.storage.signedUrl(key, { method: 'GET' }) : null;
  return {
    hasMore: rows.length > JOBS_PAGE_SIZE,
    jobs: await Promise.all(
      rows.slice(0, JOBS_PAGE_SIZE).map(async (j) => ({
        id: j.id,
        filename: j.filename,
        status: publicStatus(j),
        createdAt: j.createdAt,
        lengthSeconds: j.lengthSeconds,
        width: j.width,
        height: j.height,
        model: j.model,
        outputFormat: j.outputFormat,
        background: startedRequest(j).background,
        creditsUsed: j.creditsUsed,
        message: j.message,
        progress: j.status === 'processing' ? fractionDone(readProgress(j)) : null,
        thumbnailUrl: await sign(j.thumbnailKey),
        transparentThumbnailUrl: await sign(j.transparentThumbKey),
        posterUrl: await sign(j.outputs[0]?.posterKey ?? null),
      })),
    ),
  };
}
