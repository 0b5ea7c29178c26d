import fs from 'node:fs/promises';
import path from 'node:path';
import type { Recipe, Transform, TransparentFormat } from '../../../engine/media/recipe';
import { isApiModel } from '../../../engine/tiers';
import { refundJob } from '../../../lib/billing/ledger';
import { db } from '../../../lib/db/client';
import type { Job, Output } from '../../../lib/db/generated/client';
import { env } from '../../../lib/env';
import { probeVideo } from '../../../lib/media/probe';
import { renderOutput } from '../../../lib/media/render';
import { renderPoster, renderThumbnails } from '../../../lib/media/thumbnails';
import { FetchError, safeFetchToFile } from '../../../lib/net/safe-fetch';
import { PermanentJobError } from '../../../lib/queue/errors';
import { toRecipe, type Background } from '../../../lib/schemas/background';
import { segmentVideo } from '../../../lib/segment/segment-video';
import { storage, storageKeys } from '../../../lib/storage';
import { deliverDueNow } from '../../../lib/webhooks/deliver';
import { storedBackground } from '../../../lib/webhooks/events';
import { scheduleWebhook } from '../../../lib/webhooks/schedule';
import { ProgressWriter } from '../progress';
import type { HandlerContext, KindHandler } from '../runner';

const MASK_VERSION = 1;

/** The job's own scratch folder: nothing from one job can be reached from another's. */
export function workDirOf(jobId: string): string {
  return path.join(env().dataDir, 'work', jobId);
}

async function fetchBackground(url: string, workDir: string, signal: AbortSignal): Promise<string> {
  const file = path.join(workDir, 'background');
  try {
    await safeFetchToFile(url, file, { maxBytes: env().MAX_UPLOAD_BYTES, signal });
  } catch (e) {
    if (e instanceof FetchError && !e.transient) {
      throw new PermanentJobError(`The composition background could not be fetched: ${e.message}`);
    }
    throw e;
  }
  return file;
}

/** The primary output row of the job (start-job normally creates it; a missing one is made here). */
async function primaryOutput(job: Job, format: string) {
  const existing = await db().output.findFirst({ where: { jobId: job.id, role: 'primary' }, orderBy: { createdAt: 'asc' } });
  if (existing) return existing;
  return db().output.create({ data: { jobId: job.id, role: 'primary', format, status: 'queued' } });
}

/** An additional export's recipe: its transparent format and transform, on the job's mask. */
function additionalRecipe(output: Output): Recipe {
  const transform = output.transformJson ? (JSON.parse(output.transformJson) as Transform) : undefined;
  return { kind: 'transparent', format: output.format as TransparentFormat, ...(transform ? { transform } : {}) };
}

async function storeMask(jobId: string, maskFile: string): Promise<string> {
  const key = storageKeys.mask(jobId, MASK_VERSION);
  await storage().putFile(key, maskFile, { move: true });
  await db().$transaction([
    db().maskVersion.upsert({
      where: { jobId_version: { jobId, version: MASK_VERSION } },
      create: { jobId, version: MASK_VERSION, status: 'completed', storageKey: key, source: 'segmentation' },
      update: { status: 'completed', storageKey: key },
    }),
    db().job.update({ where: { id: jobId }, data: { activeMaskVersion: MASK_VERSION } }),
  ]);
  return storage().localPath(key);
}

/**
 * Announces completion: the job.completed delivery is recorded and its first attempt finished
 * (with any due job.started attempt) before the job reads "completed", as clients expect.
 * A re-run after a crash does not schedule the event twice.
 */
async function completeJob(jobId: string, ctx: HandlerContext): Promise<void> {
  await db().$transaction(async (tx) => {
    // Touching the job first takes SQLite's write lock before the reads (see lib/db/client.ts).
    const job = await tx.job.update({ where: { id: jobId }, data: { updatedAt: new Date() } });
    const already = await tx.webhookDelivery.findFirst({
      where: { jobId, eventType: 'job.completed', attemptNumber: 1 },
      select: { id: true },
    });
    if (!already) await scheduleWebhook(tx, job, 'job.completed');
  });
  await deliverDueNow(jobId, ctx.workerId);
  await db().job.updateMany({
    where: { id: jobId, status: 'processing' },
    data: { status: 'completed', completedAt: new Date(), message: null },
  });
}

async function run(jobId: string, ctx: HandlerContext): Promise<void> {
  const job = await db().job.findUnique({ where: { id: jobId } });
  // Deleted, or finished by an earlier attempt whose worker died before acknowledging: done.
  if (!job || job.status !== 'processing') return;
  if (!job.sourceKey) throw new PermanentJobError('The job has no uploaded video.');
  const model = job.model ?? 'service-original';
  if (!isApiModel(model)) throw new PermanentJobError(`Unknown model ${model}.`);
  const background: Background | null = storedBackground(job.backgroundJson);
  if (job.backgroundJson && !background) throw new PermanentJobError('The background options of this job could not be read.');
  const { signal } = ctx;
  // Processing begins now: send job.started before the long work, not after it.
  await deliverDueNow(jobId, ctx.workerId).catch((e: unknown) =>
    console.error(`[worker] job.started delivery for ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`),
  );

  const progress = new ProgressWriter(jobId, job.frameCount ?? 0, (e) =>
    console.error(`[worker] progress write for ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`),
  );
  const workDir = workDirOf(jobId);
  await fs.rm(workDir, { recursive: true, force: true });
  await fs.mkdir(workDir, { recursive: true });
  try {
    progress.stage('probe');
    const source = await storage().localPath(job.sourceKey);
    const info = await probeVideo(source, { signal });
    await db().job.update({
      where: { id: jobId },
      data: {
        lengthSeconds: job.lengthSeconds ?? info.duration,
        fps: job.fps ?? info.fps,
        width: job.width ?? info.width,
        height: job.height ?? info.height,
        frameCount: job.frameCount ?? info.frameCount,
        hasAudio: job.hasAudio ?? info.hasAudio,
        container: job.container ?? info.container,
      },
    });

    let backgroundFile: string | undefined;
    const backgroundUrl = background?.type === 'composition' ? background.composition?.background_url : undefined;
    if (backgroundUrl) {
      progress.stage('fetch-background');
      backgroundFile = await fetchBackground(backgroundUrl, workDir, signal);
    }
    const recipe = toRecipe(background, { backgroundFile });

    progress.stage('segment');
    const maskFile = path.join(workDir, 'mask.mkv');
    await segmentVideo({
      input: source,
      info,
      maskOut: maskFile,
      model,
      threshold: background?.options?.threshold ?? null,
      smartSampling: background?.options?.smart_sampling ?? undefined,
      signal,
      onProgress: (p) => progress.frames(p),
      onPreview: (image) => progress.preview(image),
    });
    const mask = await storeMask(jobId, maskFile);

    progress.stage('render');
    const primary = await primaryOutput(job, job.outputFormat ?? job.format ?? 'mp4');
    const renderAndStore = async (output: Output, outputRecipe: Recipe, onFrames?: (n: number) => void) => {
      await db().output.update({ where: { id: output.id }, data: { status: 'processing', maskVersion: MASK_VERSION } });
      const rendered = await renderOutput({
        source,
        info,
        mask,
        recipe: outputRecipe,
        outDir: workDir,
        basename: `output-${output.id}`,
        signal,
        onProgress: onFrames,
      });
      const outputKey = storageKeys.output(jobId, output.id, rendered.extension);
      await storage().putFile(outputKey, rendered.file, { move: true });
      const poster = outputRecipe.kind === 'transparent' ? null : await renderPoster({ file: await storage().localPath(outputKey), extension: rendered.extension, info, outDir: workDir });
      if (poster) await storage().putFile(storageKeys.poster(jobId, output.id), poster, { move: true });
      await db().output.update({
        where: { id: output.id },
        data: {
          status: 'completed',
          storageKey: outputKey,
          metadataJson: JSON.stringify(rendered.metadata),
          recipeJson: JSON.stringify(outputRecipe),
          posterKey: poster ? storageKeys.poster(jobId, output.id) : null,
          error: null,
          completedAt: new Date(),
        },
      });
    };
    await renderAndStore(primary, recipe, (framesDone) => progress.count(framesDone));

    // Additional exports requested at start: transparent formats rendered from the same
    // original and mask. The job completes only once every one of them has.
    const additional = await db().output.findMany({
      where: { jobId, role: 'additional', status: { not: 'completed' } },
      orderBy: { createdAt: 'asc' },
    });
    if (additional.length) progress.stage('exports');
    for (const output of additional) await renderAndStore(output, additionalRecipe(output));

    progress.stage('thumbnails');
    const thumbs = await renderThumbnails({ source, info, mask, outDir: workDir });
    const thumbKey = storageKeys.thumbnail(jobId);
    const transparentKey = storageKeys.transparentThumbnail(jobId);
    await storage().putFile(thumbKey, thumbs.jpeg, { move: true });
    await storage().putFile(transparentKey, thumbs.png, { move: true });
    await db().job.update({ where: { id: jobId }, data: { thumbnailKey: thumbKey, transparentThumbKey: transparentKey } });

    progress.stage('finishing');
    await progress.flush();
    await completeJob(jobId, ctx);
  } finally {
    await progress.flush();
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Fails the job for good: status failed with the reason, the charge refunded, outputs marked
 * failed and job.failed announced, all in one transaction (idempotent: a failed job stays put).
 */
async function fail(jobId: string, message: string, ctx: HandlerContext): Promise<void> {
  const changed = await db().$transaction(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id: jobId, status: 'processing' },
      data: { status: 'failed', message, completedAt: new Date() },
    });
    if (count === 0) return false;
    await refundJob(tx, jobId);
    await tx.output.updateMany({
      where: { jobId, status: { in: ['queued', 'processing'] } },
      data: { status: 'failed', error: message },
    });
    await scheduleWebhook(tx, await tx.job.findUniqueOrThrow({ where: { id: jobId } }), 'job.failed');
    return true;
  });
  if (!changed) return;
  await fs.rm(workDirOf(jobId), { recursive: true, force: true });
  try {
    await deliverDueNow(jobId, ctx.workerId);
  } catch (e) {
    // The queue delivers it instead.
    console.error(`[worker] inline job.failed delivery for ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export const processVideo: KindHandler<'process-video'> = {
  run: ({ jobId }, ctx) => run(jobId, ctx),
  onFailure: ({ jobId }, message, ctx) => fail(jobId, message, ctx),
};
