import { db } from '../../db/client';
import type { JobStatusRecord } from '../../schemas/jobs';
import { getJobStatus } from './get-job-status';
import { storage, storageKeys } from '../../storage';

/** Where a running job is, in the words of the worker (workers/server/progress.ts). */
export type JobStage = 'queued' | 'probe' | 'fetch-background' | 'segment' | 'render' | 'exports' | 'thumbnails' | 'finishing';

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

const STAGES = new Set<string>(['probe', 'fetch-background', 'segment', 'render', 'exports', 'thumbnails', 'finishing']);

function parse(json: string | null): Omit<JobProgress, 'previewUrl'> {
  const empty = { stage: 'queued' as const, framesDone: 0, framesTotal: 0, fps: null, etaSeconds: null, previewFrame: null };
  if (!json) return empty;
  try {
    const p = JSON.parse(json) as Record<string, unknown>;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    return {
      stage: typeof p.stage === 'string' && STAGES.has(p.stage) ? (p.stage as JobStage) : 'queued',
      framesDone: Math.round(num(p.framesDone) ?? 0),
      framesTotal: Math.round(num(p.framesTotal) ?? 0),
      fps: num(p.fps) || null,
      etaSeconds: num(p.etaSeconds),
      previewFrame: num(p.previewFrame),
    };
  } catch {
    return empty;
  }
}

/**
 * The job's status record plus, while it runs, its stage, frame counts and a signed URL of the
 * live preview. The dashboard polls this; the /v1 status record stays as the spec has it.
 */
export async function getJobProgress(userId: string, jobId: string): Promise<{ status: JobStatusRecord; progress: JobProgress | null }> {
  const status = await getJobStatus(userId, jobId);
  if (status.status !== 'processing') return { status, progress: null };
  const job = await db().job.findFirst({ where: { id: jobId, userId }, select: { progressJson: true } });
  const p = parse(job?.progressJson ?? null);
  // The frame number in the URL's name changes with each preview, so the browser never shows a stale one.
  const previewUrl =
    p.previewFrame !== null ? await storage().signedUrl(storageKeys.preview(jobId), { method: 'GET', filename: `preview-${p.previewFrame}.png` }) : null;
  return { status, progress: { ...p, previewUrl } };
}
