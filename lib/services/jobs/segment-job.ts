import path from 'node:path';
import { apiModel, type ApiModel } from '../../../engine/api-models';
import type { EnginePreset } from '../../../engine/presets';
import { safeImageInputArgs, safeInputArgs } from '../../../engine/media/input';
import { stillAnimationArgs, stillFrame } from '../../../engine/media/still';
import type { MediaInfo } from '../../../engine/media/types';
import type { Job, Output } from '../../db/generated/client';
import type { Recipe } from '../../../engine/media/recipe';
import { env } from '../../env';
import { fileHead, imageSize, sniffImage } from '../../media/background';
import { ffmpeg, MediaError } from '../../media/ffmpeg';
import { probeVideo } from '../../media/probe';
import type { RenderedOutput } from '../../media/render';
import { runEncode } from '../../media/run-ffmpeg';
import { renderThumbnails } from '../../media/thumbnails';
import { PermanentJobError, transact } from '../../queue';
import { stillFrames, type StillOptions } from '../../schemas/image-to-video';
import { stillColumn } from '../uploads/columns';
import { mediaColumn } from './columns';
import { startedRequest } from './started-request';
import { segmentVideo, type SegmentOptions } from '../../segment/mask-video';
import { storageKeys } from '../../storage';
import type { Ports, WorkContext } from '../ports';
import {
  completedMaskVersion,
  SEGMENTATION_VERSION,
  storeSegmentationMask,
} from '../masks/mask-versions';
import { enqueueRender, START_ROLES } from '../outputs/create';
import { withScratch } from '../../storage/scratch';
import { announceStart, finishJobIfReady } from './finish-job';
import { ProgressWriter } from './progress';

const logProgressError = (jobId: string) => (e: unknown) =>
  console.error(
    `[worker] progress write for ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`,
  );

/** The worker's full probe of the original, as stored on the job for every later render. */
export function mediaInfoOf(job: Pick<Job, 'id' | 'mediaJson'>): MediaInfo {
  if (!job.mediaJson)
    throw new PermanentJobError('The video of this job has not been examined yet.');
  return mediaColumn.read(job.mediaJson);
}

/**
 * The Job lifecycle's first unit of work: probe the original in full, segment it into mask
 * version 1 (active), make the thumbnails, then queue the start's outputs, each its own
 * `render-output`. A job already past this step (a re-run after a crash) only re-queues them.
 * An image-to-video job differs only in how it gets its video and mask (`animateStill`).
 */
/**
 * What rendering the primary output while segmenting needs from the renders wing (which sits
 * above jobs, so the worker hands it in): the output's recipe, and completing it once rendered.
 */
export interface PrimaryRender {
  recipe(output: Output, job: Job): Recipe;
  complete(
    ports: Ports,
    output: Output,
    rendered: RenderedOutput,
    maskVersion: number,
  ): Promise<void>;
}

export async function segmentJob(
  jobId: string,
  ctx: WorkContext,
  primaryRender?: PrimaryRender,
): Promise<void> {
  const { db, storage } = ctx.ports;
  const job = await db.job.findUnique({ where: { id: jobId } });
  // Deleted, or finished by an earlier attempt whose worker died before acknowledging: done.
  if (!job || job.status !== 'processing') return;
  const still = stillColumn.readNullable(job.stillJson);
  if (!(still ? job.stillKey : job.sourceKey))
    throw new PermanentJobError(`The job has no uploaded ${still ? 'image' : 'video'}.`);
  const request = startedRequest(job);
  if (!request.readable)
    throw new PermanentJobError('The start options of this job could not be read.');
  await announceStart(ctx.ports, jobId);

  const segmented =
    job.mediaJson && job.thumbnailKey && (await completedMaskVersion(ctx.ports, job, null));
  if (!segmented) {
    const progress = new ProgressWriter(
      ctx.ports,
      jobId,
      job.frameCount ?? 0,
      logProgressError(jobId),
    );
    try {
      await withScratch(`segment-${jobId}`, async (dir) => {
        const options = request.background?.options;
        const work = {
          job,
          model: request.model,
          preset: options?.preset ?? null,
          threshold: options?.threshold ?? null,
          dir,
          ctx,
          progress,
          primaryRender,
        };
        // A still is segmented once and animated with its mask; a video is segmented frame by
        // frame.
        const { source, info, mask, primary } = still
          ? await animateStill(work, still)
          : await segmentUpload(work, options?.smart_sampling ?? undefined);
        progress.stage('thumbnails');
        const thumbs = await renderThumbnails({ source, info, mask, outDir: dir });
        const thumbnailKey = storageKeys.thumbnail(jobId);
        const transparentThumbKey = storageKeys.transparentThumbnail(jobId);
        await storage.putFile(thumbnailKey, thumbs.jpeg, { move: true });
        await storage.putFile(transparentThumbKey, thumbs.png, { move: true });
        await db.job.update({
          where: { id: jobId },
          data: { thumbnailKey, transparentThumbKey },
        });
        await storeSegmentationMask(ctx.ports, jobId, mask);
        if (primary)
          await primaryRender!.complete(
            ctx.ports,
            primary.output,
            primary.rendered,
            SEGMENTATION_VERSION,
          );
      });
    } finally {
      await progress.flush();
    }
  }

  // Hand over to the outputs: each of the start's outputs renders as its own unit of work.
  const queued = await transact(ctx.ports, async (tx) => {
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
  if (queued === 0) await finishJobIfReady(ctx.ports, jobId);
}

interface SegmentWork {
  job: Job;
  model: ApiModel;
  preset: EnginePreset | null;
  threshold: number | null;
  dir: string;
  ctx: WorkContext;
  progress: ProgressWriter;
  primaryRender?: PrimaryRender;
}

/**
 * What segmentation leaves for the thumbnails and the mask store: the original as a video, its
 * facts, its mask, and the primary output where it was rendered meanwhile (it then skips the
 * queue).
 */
interface Segmented {
  source: string;
  info: MediaInfo;
  mask: string;
  primary?: { output: Output; rendered: RenderedOutput } | null;
}

/**
 * Segments with the job's model, preset and threshold on the worker's models, and logs the
 * engine settings that ran, for operators (and the tests that check what a preset changes).
 */
async function segment(
  w: SegmentWork,
  opts: Pick<
    SegmentOptions,
    'input' | 'info' | 'maskOut' | 'smartSampling' | 'onProgress' | 'onPreview' | 'render'
  >,
): Promise<RenderedOutput | null> {
  const { ctx } = w;
  const { tier, rendered } = await segmentVideo({
    ...opts,
    model: w.model,
    preset: w.preset,
    threshold: w.threshold,
    signal: ctx.signal,
    runtime: await ctx.ports.runtime(),
  });
  const settings = {
    model: tier.model,
    workSide: tier.workSide,
    keyInterval: tier.keyframes.interval,
    guided: tier.guided,
  };
  ctx.log(`job ${w.job.id} segmented with ${JSON.stringify(settings)}`);
  return rendered;
}

/** A video upload: probed in full (the facts every render reads), then segmented frame by frame. */
async function segmentUpload(
  w: SegmentWork,
  smartSampling: boolean | undefined,
): Promise<Segmented> {
  const { job, dir, ctx, progress } = w;
  const { db, storage } = ctx.ports;
  progress.stage('probe');
  const source = await storage.localFile(job.sourceKey!, dir);
  const info = await probeVideo(source, { signal: ctx.signal });
  await db.job.update({
    where: { id: job.id },
    data: {
      mediaJson: mediaColumn.write(info),
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
  const mask = path.join(dir, 'mask.mkv');
  // The primary output renders while segmenting, from the mask as it is written.
  const primary = w.primaryRender
    ? await db.output.findFirst({
        where: { jobId: job.id, role: 'primary', status: { not: 'completed' } },
      })
    : null;
  const rendered = await segment(w, {
    input: source,
    info,
    maskOut: mask,
    smartSampling,
    onProgress: (p) => progress.frames(p),
    onPreview: (image) => progress.preview(image),
    render: primary
      ? {
          recipe: w.primaryRender!.recipe(primary, job),
          edgeColour: apiModel(w.model).edgeColour,
          outDir: path.join(dir, 'primary'),
          basename: 'output',
          poster: true,
        }
      : undefined,
  });
  return {
    source,
    info,
    mask,
    primary: primary && rendered ? { output: primary, rendered } : null,
  };
}

/**
 * An image-to-video job: the still, at the clip's frame size, is segmented once (a one-frame
 * video through the same segmenter), then the still and its mask are animated together by the
 * camera move into the clip and its mask (engine/media/still.ts). The clip becomes the job's
 * source (`source.mkv`), so renders, exports and downloads treat it as any video.
 */
async function animateStill(w: SegmentWork, still: StillOptions): Promise<Segmented> {
  const { job, dir, ctx, progress } = w;
  const { db, storage } = ctx.ports;
  progress.stage('probe');
  const image = await storage.localFile(job.stillKey!, dir);
  const demuxer = sniffImage(await fileHead(image));
  if (!demuxer) throw new PermanentJobError('The uploaded image is not a PNG, JPEG or WebP.');
  const size = await imageSize(image, demuxer, ctx.signal).catch((e: unknown) => {
    throw e instanceof MediaError ? new PermanentJobError(`The image ${e.message}`) : e;
  });
  const frame = stillFrame(size.width, size.height);
  const frame1 = path.join(dir, 'still.mkv');
  await ffmpeg(
    [
      ...safeImageInputArgs(demuxer, image),
      '-vf',
      `scale=${frame.width}:${frame.height},format=yuv444p`,
      '-frames:v',
      '1',
      '-c:v',
      'ffv1',
      '-f',
      'matroska',
      frame1,
    ],
    { timeoutMs: 120_000, signal: ctx.signal },
  );
  const frameInfo = await probeVideo(frame1, { signal: ctx.signal });
  progress.stage('segment');
  const stillMask = path.join(dir, 'still-mask.mkv');
  await segment(w, { input: frame1, info: frameInfo, maskOut: stillMask });
  const clip = path.join(dir, 'clip.mkv');
  const mask = path.join(dir, 'mask.mkv');
  const safe = (f: string) => safeInputArgs({ demuxer: 'matroska' }, f, env().MAX_FRAME_PIXELS);
  await runEncode(
    stillAnimationArgs({
      colourInput: safe(frame1),
      maskInput: safe(stillMask),
      ...frame,
      frames: stillFrames(still),
      fps: still.fps,
      motion: still.motion,
      clip,
      mask,
    }),
    { what: 'the animated clip', signal: ctx.signal, onProgress: (n) => progress.count(n) },
  );
  const info = await probeVideo(clip, { signal: ctx.signal });
  const sourceKey = storageKeys.source(job.id, 'clip', 'mkv');
  await storage.putFile(sourceKey, clip, { move: false });
  await db.job.update({
    where: { id: job.id },
    data: {
      sourceKey,
      mediaJson: mediaColumn.write(info),
      frameCount: info.frameCount,
      width: info.width,
      height: info.height,
    },
  });
  return { source: clip, info, mask };
}
