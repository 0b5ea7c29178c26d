import type { z } from 'zod';
import { classicBackground } from '../outputs/recipes';
import { exportIdOf, startedRequest } from './started-request';
import { JOB_STATUSES, type JobStatusRecord } from '../../schemas/jobs';
import { ServiceError } from '../../errors';
import { settleDirectUpload } from '../uploads/direct-upload';
import { downloadName } from '../outputs/records';
import { readProgress, type Stage, type StoredProgress } from './progress';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

type Progress = NonNullable<z.infer<typeof JobStatusRecord>['progress']>;

/** The status record's progress, once the worker has counted frames. */
function statusProgress(
  stored: StoredProgress | null,
): (Progress & { stage: Stage | null }) | null {
  if (!stored || stored.framesDone === null || stored.framesTotal === null) return null;
  return {
    frames_done: Math.round(stored.framesDone),
    frames_total: Math.round(stored.framesTotal),
    fps: stored.fps !== null ? Math.round(stored.fps * 10) / 10 : null,
    eta_seconds: stored.etaSeconds !== null ? Math.round(stored.etaSeconds) : null,
    stage: stored.stage,
  };
}

const STAGE_TEXT: Record<Stage, string> = {
  probe: 'Checking the video',
  'fetch-background': 'Fetching the background',
  segment: 'Removing the background',
  render: 'Encoding the output',
  exports: 'Encoding the additional exports',
  thumbnails: 'Making thumbnails',
  finishing: 'Finishing',
};

/** e.g. "Removing the background: frame 120 of 250 (48%), about 9 s left". */
function progressText(p: Progress & { stage: Stage | null }): string {
  const label = (p.stage && STAGE_TEXT[p.stage]) ?? 'Processing';
  if (p.frames_total <= 0) return label;
  const pct = Math.floor((100 * Math.min(p.frames_done, p.frames_total)) / p.frames_total);
  const eta = p.eta_seconds !== null ? `, about ${p.eta_seconds} s left` : '';
  return `${label}: frame ${p.frames_done} of ${p.frames_total} (${pct}%)${eta}`;
}

/**
 * The job's status as clients see it: one of the five states (any other stored one reads as
 * processing).
 */
export function publicStatus(job: { status: string }): JobStatusRecord['status'] {
  return (JOB_STATUSES as readonly string[]).includes(job.status)
    ? (job.status as JobStatusRecord['status'])
    : 'processing';
}

/**
 * The status record of one of the caller's jobs: every field of the spec, signed URLs (1 h)
 * for results, progress in `message` and the extra `progress` object; `status` only ever holds
 * one of the five states.
 */
export async function getJobStatus(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<JobStatusRecord> {
  let job = await ownedJob(ports, userId, jobId);
  if (job.status === 'created') {
    // An upload straight into S3 becomes `uploaded` once checked; a refused one leaves its reason
    // in `message`.
    await settleDirectUpload(ports, job.id).catch((e: unknown) => {
      if (!(e instanceof ServiceError)) throw e;
    });
    job = (await ports.db.job.findUnique({ where: { id: jobId } })) ?? job;
  }
  const status = publicStatus(job);
  const request = startedRequest(job);
  const { background } = request;
  const completed = status === 'completed';
  // Polling is the hot path: the output and mask rows are read only when the answer needs them.
  const primary =
    background || completed
      ? await ports.db.output.findFirst({
          where: { jobId, role: 'primary' },
          orderBy: { createdAt: 'asc' },
        })
      : null;
  // One story: the mask is the version processed_video_url was rendered from, also after a
  // refinement made another active (the refined one is exported, docs/api.md).
  const maskVersion = primary?.maskVersion ?? job.activeMaskVersion;
  const mask =
    completed && maskVersion !== null
      ? await ports.db.maskVersion.findFirst({
          where: { jobId, version: maskVersion, status: 'completed' },
        })
      : null;
  const sign = async (key: string | null | undefined, suffix?: string) =>
    key
      ? ports.storage.signedUrl(key, {
          method: 'GET',
          ...(suffix ? { filename: downloadName(job.filename, key, suffix) } : {}),
        })
      : null;
  const progress = status === 'processing' ? statusProgress(readProgress(job)) : null;

  return {
    id: job.id,
    status,
    filename: job.filename,
    created_at: job.createdAt.toISOString(),
    export_id: exportIdOf(request, primary?.id),
    length_seconds: job.lengthSeconds,
    thumbnail_url: await sign(job.thumbnailKey),
    transparent_thumbnail_url: await sign(job.transparentThumbKey),
    processed_video_url:
      completed && primary?.status === 'completed'
        ? await sign(primary.storageKey, 'keyout')
        : null,
    processed_mask_url: completed ? await sign(mask?.storageKey, 'mask') : null,
    message: progress ? progressText(progress) : job.message,
    background: classicBackground(background),
    output_format: background ? job.outputFormat : null,
    progress: progress
      ? {
          frames_done: progress.frames_done,
          frames_total: progress.frames_total,
          fps: progress.fps,
          eta_seconds: progress.eta_seconds,
        }
      : null,
  };
}
