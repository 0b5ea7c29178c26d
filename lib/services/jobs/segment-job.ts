import path from 'node:path';
import type { MediaInfo } from '../../../engine/media/types';
import { db } from '../../db/client';
import type { Job } from '../../db/generated/client';
import { probeVideo } from '../../media/probe';
import { renderThumbnails } from '../../media/thumbnails';
import { PermanentJobError, transact } from '../../queue';
import { startedRequest } from '../../schemas/stored-request';
import { segmentVideo } from '../../segment/segment-video';
import { storage, storageKeys } from '../../storage';
import { completedMaskVersion, storeSegmentationMask } from '../masks';
import { enqueueRender, START_ROLES } from '../outputs/create';
import { withScratch } from '../scratch';
import { announceStart, finishJobIfReady } from './finish-job';
import { ProgressWriter } from './progress';

export interface WorkContext {
  /** Aborted on timeout, shutdown and a lost lease. */
  signal: AbortSignal;
  workerId: string;
}

const logProgressError = (jobId: string) => (e: unknown) =>
  console.error(
    `[worker] progress write for ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`,
  );

/** The worker's full probe of the original, as stored on the job for every later render. */
export function mediaInfoOf(job: Pick<Job, 'id' | 'mediaJson'>): MediaInfo {
  if (!job.mediaJson)
    throw new PermanentJobError('The video of this job has not been examined yet.');
  return JSON.parse(job.mediaJson) as MediaInfo;
}

/**
 * The Job lifecycle's first unit of work: probe the original in full, segment it into mask
 * version 1 (active), make the thumbnails, then queue the start's outputs, each its own
 * `render-output`. A job already past this step (a re-run after a crash) only re-queues them.
 */
export async function segmentJob(jobId: string, ctx: WorkContext): Promise<void> {
  const job = await db().job.findUnique({ where: { id: jobId } });
  // Deleted, or finished by an earlier attempt whose worker died before acknowledging: done.
  if (!job || job.status !== 'processing') return;
  if (!job.sourceKey) throw new PermanentJobError('The job has no uploaded video.');
  const sourceKey = job.sourceKey;
  const request = startedRequest(job);
  if (!request.readable)
    throw new PermanentJobError('The start options of this job could not be read.');
  await announceStart(jobId, ctx.workerId);

  const segmented = job.mediaJson && job.thumbnailKey && (await completedMaskVersion(job, null));
  if (!segmented) {
    const progress = new ProgressWriter(jobId, job.frameCount ?? 0, logProgressError(jobId));
    try {
      await withScratch(`segment-${jobId}`, async (dir) => {
        progress.stage('probe');
        const source = await storage().localFile(sourceKey, dir);
        const info = await probeVideo(source, { signal: ctx.signal });
        await db().job.update({
          where: { id: jobId },
          data: {
            mediaJson: JSON.stringify(info),
            lengthSeconds: job.lengthSeconds ?? info.duration,
            fps: job.fps ?? info.fps,
            width: job.width ?? info.width,
            height: job.height ?? info.height,
            frameCount: job.frameCount ?? info.frameCount,
            hasAudio: job.hasAudio ?? info.hasAudio,
            container: job.container ?? info.container,
          },
        });
        progress.stage('segment');
        const maskFile = path.join(dir, 'mask.mkv');
        await segmentVideo({
          input: source,
          info,
          maskOut: maskFile,
          model: request.model,
          threshold: request.background?.options?.threshold ?? null,
          smartSampling: request.background?.options?.smart_sampling ?? undefined,
          signal: ctx.signal,
          onProgress: (p) => progress.frames(p),
          onPreview: (image) => progress.preview(image),
        });
        progress.stage('thumbnails');
        const thumbs = await renderThumbnails({ source, info, mask: maskFile, outDir: dir });
        const thumbnailKey = storageKeys.thumbnail(jobId);
        const transparentThumbKey = storageKeys.transparentThumbnail(jobId);
        await storage().putFile(thumbnailKey, thumbs.jpeg, { move: true });
        await storage().putFile(transparentThumbKey, thumbs.png, { move: true });
        await db().job.update({
          where: { id: jobId },
          data: { thumbnailKey, transparentThumbKey },
        });
        await storeSegmentationMask(jobId, maskFile);
      });
    } finally {
      await progress.flush();
    }
  }

  // Hand over to the outputs: each of the start's outputs renders as its own unit of work.
  const queued = await transact(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id: jobId, status: 'processing' },
      data: { updatedAt: new Date() },
    });
    if (!count) return 0;
    const outputs = await tx.output.findMany({
      where: { jobId, role: { in: START_ROLES }, status: { not: 'completed' } },
      orderBy: { createdAt: 'asc' },
    });
    for (const o of outputs) await enqueueRender(tx, o.id);
    return outputs.length;
  });
  // A re-run after every output finished (a crash before the job was marked) finishes it here.
  if (queued === 0) await finishJobIfReady(jobId, ctx.workerId);
}
