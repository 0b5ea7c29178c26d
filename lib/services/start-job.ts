import type { z } from 'zod';
import { debitForJob } from '../billing/ledger';
import { priceJob } from '../billing/pricing';
import { db } from '../db/client';
import type { Job } from '../db/generated/client';
import { assertFetchableUrl, FetchError } from '../net/safe-fetch';
import { enqueue } from '../queue';
import { Background, cleanTransform, outputFormatOf, planOutputs, usesBlur } from '../schemas/background';
import type { StartJobRequest, StartResponse } from '../schemas/jobs';
import { assertWebhookUrl } from '../webhooks/url';
import { scheduleWebhook } from '../webhooks/schedule';
import { jobNotFound, ServiceError } from './errors';

type Started = z.infer<typeof StartResponse>;

export const processVideoKey = (jobId: string) => `process-video:${jobId}`;

async function checkUrl(url: string, what: string, check: (u: string) => Promise<void>): Promise<void> {
  try {
    await check(url);
  } catch (e) {
    if (e instanceof FetchError) throw new ServiceError('invalid', `${what} is not allowed: ${e.message}`, e.message);
    throw e;
  }
}

function responseOf(job: Job, exportId: string | null): Started {
  const background = job.backgroundJson ? Background.parse(JSON.parse(job.backgroundJson)) : undefined;
  return {
    id: job.id,
    ...(background && exportId ? { export_id: exportId } : {}),
    status: 'processing',
    created_at: (job.startedAt ?? job.updatedAt).toISOString(),
    creditsUsed: job.creditsUsed ?? 0,
    video_length_seconds: job.lengthSeconds ?? 0,
    ...(background ? { background } : {}),
    ...(job.webhookUrl
      ? { message: 'Processing started; the webhook URL will be notified when the job completes or fails.', webhook_url: job.webhookUrl }
      : {}),
  };
}

async function primaryOutputId(jobId: string): Promise<string | null> {
  return (await db().output.findFirst({ where: { jobId, role: 'primary' }, select: { id: true } }))?.id ?? null;
}

/**
 * Starts processing an uploaded job. One transaction: the job moves to `processing` with its
 * start parameters, the ledger is debited exactly priceJob(...) (idempotency key debit:<job>),
 * the primary output row is created, `process-video` is enqueued and `job.started` scheduled.
 * Insufficient credits roll all of it back. Starting a job that is already processing answers
 * the original start again, without a second charge.
 */
export async function startJob(userId: string, jobId: string, req: StartJobRequest): Promise<Started> {
  const job = await db().job.findFirst({ where: { id: jobId, userId } });
  if (!job) throw jobNotFound();
  if (job.status === 'processing') return responseOf(job, await primaryOutputId(job.id));
  if (job.status === 'created') throw new ServiceError('invalid', 'Upload the video before starting the job', 'PUT the file to the upload_url from job creation first.');
  if (job.status !== 'uploaded') throw new ServiceError('conflict', `The job has already been processed (status ${job.status})`);

  const background = req.background ?? null;
  if (req.exports?.length) {
    // Validates the spec's rules (sizes, native-only formats, ≤ 50 unique) before refusing.
    planOutputs({ format: outputFormatOf(background), transform: cleanTransform(background?.transform) }, req.exports);
    throw new ServiceError('invalid', 'Additional exports at start are not available on this server yet', 'Start without `exports`.');
  }
  if (req.webhook_url) await checkUrl(req.webhook_url, 'webhook_url', assertWebhookUrl);
  const backgroundUrl = background?.type === 'composition' ? background.composition?.background_url : null;
  if (backgroundUrl) await checkUrl(backgroundUrl, 'background.composition.background_url', (u) => assertFetchableUrl(u));

  if (!job.lengthSeconds || !job.fps) throw new Error(`Job ${job.id} is uploaded without probe results`);
  const credits = priceJob({ model: req.model, durationSeconds: job.lengthSeconds, fps: job.fps, blur: usesBlur(background) });
  const outputFormat = outputFormatOf(background);
  const transform = cleanTransform(background?.transform);

  const started = await db().$transaction(async (tx) => {
    // The write comes first, so SQLite holds the write lock while the balance is read.
    const moved = await tx.job.updateMany({
      where: { id: job.id, userId, status: 'uploaded' },
      data: {
        status: 'processing',
        model: req.model,
        format: req.format ?? null,
        backgroundJson: background ? JSON.stringify(background) : null,
        outputFormat,
        webhookUrl: req.webhook_url ?? null,
        creditsUsed: credits,
        message: 'Queued for processing',
        progressJson: null,
        startedAt: new Date(),
      },
    });
    if (moved.count !== 1) throw new ServiceError('conflict', 'The job was started by another request');
    await debitForJob(tx, { userId, jobId: job.id, amount: credits });
    const output = await tx.output.create({
      data: {
        jobId: job.id,
        role: 'primary',
        format: outputFormat,
        transformJson: transform ? JSON.stringify(transform) : null,
        status: 'queued',
      },
    });
    await enqueue(tx, 'process-video', { jobId: job.id }, { singletonKey: processVideoKey(job.id) });
    const fresh = await tx.job.findUniqueOrThrow({ where: { id: job.id } });
    await scheduleWebhook(tx, fresh, 'job.started');
    return { fresh, outputId: output.id };
  });
  return responseOf(started.fresh, started.outputId);
}
