import type { JobStatusRecord } from '../../schemas/jobs';
import { getJobStatus } from './get-job-status';
import { readProgress, type Stage, type StoredProgress } from './progress';
import { storageKeys } from '../../storage';
import type { Ports } from '../ports';

/** Where a running job is, in the words of the worker (ProgressWriter, ./progress.ts). */
export type JobStage = 'queued' | Stage;

export interface JobProgress {
  stage: JobStage;
  framesDone: number;
  framesTotal: number;
  /** Frames a second over the stage so far; null before the first frame. */
  fps: number | null;
  /** The worker's estimate for the stage; the page smooths it. */
  etaSeconds: number | null;
  /** Signed URL of the newest finished frame (RGBA PNG), while there is one. */
  previewUrl: string | null;
  previewFrame: number | null;
}

/**
 * The dashboard's view of the stored progress: a job the worker has not reached yet reads as
 * queued.
 */
function dashboardProgress(p: StoredProgress | null): Omit<JobProgress, 'previewUrl'> {
  return {
    stage: p?.stage ?? 'queued',
    framesDone: Math.round(p?.framesDone ?? 0),
    framesTotal: Math.round(p?.framesTotal ?? 0),
    fps: p?.fps || null,
    etaSeconds: p?.etaSeconds ?? null,
    previewFrame: p?.previewFrame ?? null,
  };
}

/**
 * The job's status record plus, while it runs, its stage, frame counts and a signed URL of the
 * live preview. The dashboard polls this; the /v1 status record stays as the spec has it.
 */
export async function getJobProgress(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<{ status: JobStatusRecord; progress: JobProgress | null }> {
  const status = await getJobStatus(ports, userId, jobId);
  if (status.status !== 'processing') return { status, progress: null };
  const job = await ports.db.job.findFirst({ where: { id: jobId, userId } });
  const p = dashboardProgress(job && readProgress(job));
  // The frame number in the URL's name changes with each preview, so the browser never shows a
  // stale one.
  const previewUrl =
    p.previewFrame !== null
      ? await ports.storage.signedUrl(storageKeys.preview(jobId), {
          method: 'GET',
          filename: `preview-${p.previewFrame}.png`,
        })
      : null;
  return { status, progress: { ...p, previewUrl } };
}
