import type { z } from 'zod';
import { debitForJob } from '../../billing/ledger';
import { priceJob } from '../../billing/pricing';
import type { Job, Output } from '../../db/generated/client';
import { ServiceError } from '../../errors';
import { checkMediaUrl } from '../uploads/check-media-url';
import { FetchError } from '../../net/safe-fetch';
import { enqueue, transact } from '../../queue';
import {
  exportRecipe,
  outputFormatOf,
  planExports,
  toRecipe,
  usesBlur,
  cleanTransform,
} from '../outputs/recipes';
import {
  DashboardStartRequest as DashboardStartRequestSchema,
  type StartResponse,
} from '../../schemas/jobs';
import { NO_PROGRESS } from './progress';
import { exportIdOf, startedRequest, startedRequestColumns } from './started-request';
import { isBackgroundKeyOf } from '../../storage/keys';
import { assertWebhookUrl } from '../webhooks/url';
import { scheduleWebhook } from '../webhooks/schedule';
import { settleDirectUpload } from '../uploads/direct-upload';
import { createOutput } from '../outputs/create';
import { assertRenderable } from '../outputs/renderable';
import { storedTransform } from '../outputs/columns';
import { stillColumn } from '../uploads/columns';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

type Started = z.infer<typeof StartResponse>;
/**
 * The public start request (/v1), or the dashboard's, whose composition may name an uploaded image.
 */
type StartJobRequest = z.infer<typeof DashboardStartRequestSchema>;

/**
 * An image-to-video job starts with the model, background and exports given at its creation;
 * those the start body gives itself replace them (checked again together).
 */
function withStillOptions(
  job: Job,
  req: StartJobRequest,
  given: ReadonlySet<keyof StartJobRequest>,
): StartJobRequest {
  const still = stillColumn.readNullable(job.stillJson);
  if (!still) return req;
  return DashboardStartRequestSchema.parse({
    ...req,
    model: given.has('model') ? req.model : still.model,
    background: given.has('background') ? req.background : still.background,
    exports: given.has('exports') ? req.exports : still.exports,
  });
}

export const segmentVideoKey = (jobId: string) => `segment-video:${jobId}`;

async function checkUrl(
  url: string,
  what: string,
  check: (u: string) => Promise<void>,
): Promise<void> {
  try {
    await check(url);
  } catch (e) {
    if (e instanceof FetchError)
      throw new ServiceError('invalid', `${what} is not allowed: ${e.message}`, e.message);
    throw e;
  }
}

/**
 * An uploaded background must be this job's own stored image
 * (lib/services/uploads/upload-background.ts).
 */
async function assertOwnBackground(ports: Ports, jobId: string, key: string): Promise<void> {
  if (!isBackgroundKeyOf(jobId, key) || !(await ports.storage.stat(key))) {
    throw new ServiceError(
      'invalid',
      'The uploaded background image was not found',
      'Choose the image again.',
    );
  }
}

function responseOf(job: Job, outputs: Output[]): Started {
  const { background } = startedRequest(job);
  const primary = outputs.find((o) => o.role === 'primary');
  const additional = outputs.filter((o) => o.role === 'additional');
  const exportId = exportIdOf(startedRequest(job), primary?.id);
  return {
    id: job.id,
    ...(exportId ? { export_id: exportId } : {}),
    ...(additional.length && primary?.batchId
      ? {
          batch_id: primary.batchId,
          total_exports: outputs.length,
          exports: additional.map((o) => ({
            export_id: o.id,
            format: o.format,
            status: o.status === 'processing' ? 'queued' : o.status,
            transform: storedTransform(o),
          })),
        }
      : {}),
    status: 'processing',
    created_at: (job.startedAt ?? job.updatedAt).toISOString(),
    creditsUsed: job.creditsUsed ?? 0,
    video_length_seconds: job.lengthSeconds ?? 0,
    ...(background ? { background } : {}),
    ...(job.webhookUrl
      ? {
          message:
            'Processing started; the webhook URL will be notified when the job completes or fails.',
          webhook_url: job.webhookUrl,
        }
      : {}),
  };
}

/**
 * A job runs once. Starting one that has finished is a 400, a status the spec lists for start
 * (409 is its refinement conflict), with what the client can do instead.
 */
function alreadyProcessed(job: Job): ServiceError {
  const next =
    job.status === 'completed'
      ? `Make more outputs from it with POST /v1/jobs/${job.id}/exports ` +
        'or batch-exports, or refine its mask with POST ' +
        `/v1/jobs/${job.id}/refine-mask; to process a video again, ` +
        'create a new job.'
      : 'A job runs once; to try again, create a new job and upload the video to it.';
  return new ServiceError(
    'invalid',
    `The job has already been processed (status ${job.status})`,
    next,
  );
}

const startOutputsOf = (ports: Ports, jobId: string) =>
  ports.db.output.findMany({
    where: { jobId, role: { in: ['primary', 'additional'] } },
    orderBy: { createdAt: 'asc' },
  });

/**
 * Starts processing an uploaded job. One transaction: the job moves to `processing` with its
 * start parameters, the output rows are created with their recipes (the primary one and any
 * additional `exports`, deduplicated, as one batch), `segment-video` is enqueued, `job.started`
 * scheduled and the ledger debited exactly priceJob(...) (idempotency key debit:<job>). Many
 * starts of one account at once wait their turn for its row lock (lib/db/transaction.ts).
 * Additional exports cost nothing extra: they are encodes of the same mask.
 * Insufficient credits roll all of it back. Starting a job that is already processing answers
 * the original start again, without a second charge. The request is the public one (/v1), or
 * the dashboard's, whose composition may name the image uploaded into this job's own storage.
 * A start that loses a race with another start of the same job (both read it `uploaded`) is
 * answered as that one was: a replay, with no second charge, never a conflict.
 * `given` names the fields the client sent (default: those of `request`); `admitStart` runs
 * once the request is known to start something new (not for a replay), may refuse it, and
 * returns how to give its place back (a start that turns out to be a replay).
 */
export async function startJob(
  ports: Ports,
  userId: string,
  jobId: string,
  request: StartJobRequest,
  opts: StartOptions = {},
): Promise<Started> {
  // A lost race re-reads the job: started by the other request, it is a replay; with a new
  // upload committed meanwhile, the new video is priced and started.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(ports, userId, jobId, request, opts);
    if (started) return started;
    if (attempt === 3)
      throw new ServiceError(
        'invalid',
        'The video was replaced while the job was being started',
        'Start the job again once its upload has finished.',
      );
  }
}

interface StartOptions {
  given?: ReadonlySet<keyof StartJobRequest>;
  admitStart?: () => () => void;
}

/** One try of startJob: its answer, or null when another request changed the job first. */
async function startOnce(
  ports: Ports,
  userId: string,
  jobId: string,
  request: StartJobRequest,
  opts: StartOptions,
): Promise<Started | null> {
  const given = opts.given ?? new Set(Object.keys(request) as (keyof StartJobRequest)[]);
  let job = await ownedJob(ports, userId, jobId);
  if (job.status === 'created' && (await settleDirectUpload(ports, job.id)))
    job = await ports.db.job.findUniqueOrThrow({ where: { id: job.id } });
  const req = withStillOptions(job, request, given);
  if (job.status === 'processing') return responseOf(job, await startOutputsOf(ports, job.id));
  if (job.status === 'created')
    throw new ServiceError(
      'invalid',
      'Upload the video before starting the job',
      'PUT the file to the upload_url from job creation first.',
    );
  if (job.status !== 'uploaded') throw alreadyProcessed(job);

  const background = req.background ?? null;
  if (req.webhook_url) await checkUrl(req.webhook_url, 'webhook_url', assertWebhookUrl);
  const composition = background?.type === 'composition' ? background.composition : null;
  if (composition?.background_key)
    await assertOwnBackground(ports, job.id, composition.background_key);
  else if (composition?.background_url)
    await checkUrl(
      composition.background_url,
      'background.composition.background_url',
      async (u) => void (await checkMediaUrl(u)),
    );

  if (!job.lengthSeconds || !job.fps)
    throw new Error(`Job ${job.id} is uploaded without probe results`);
  const credits = priceJob({
    model: req.model,
    durationSeconds: job.lengthSeconds,
    fps: job.fps,
    blur: usesBlur(background),
  });
  const outputFormat = outputFormatOf(background);
  const primaryRecipe = toRecipe(background);
  // The spec's rules: one output per size, duplicates of the primary removed, ≤ 50 unique.
  const additional = planExports(req.exports ?? [], {
    format: outputFormat,
    transform: cleanTransform(background?.transform),
  }).map(exportRecipe);
  await assertRenderable(job, [
    { recipe: primaryRecipe, transformField: 'background.transform' },
    ...additional.map((recipe) => ({ recipe, transformField: 'exports.transform' })),
  ]);

  const giveBack = opts.admitStart?.();
  const won = await transact(ports, async (tx) => {
    // The write comes first, so SQLite holds the write lock while the balance is read.
    const moved = await tx.job.updateMany({
      // The upload it was priced from: a new one committed since is refused below.
      where: {
        id: job.id,
        userId,
        status: 'uploaded',
        sourceKey: job.sourceKey,
        stillKey: job.stillKey,
      },
      data: {
        status: 'processing',
        ...startedRequestColumns(req.model, background),
        format: req.format ?? null,
        outputFormat,
        webhookUrl: req.webhook_url ?? null,
        creditsUsed: credits,
        message: 'Queued for processing',
        ...NO_PROGRESS,
        startedAt: new Date(),
      },
    });
    // Another start (or a new upload) committed first: nothing is written, and startJob answers
    // from what it committed.
    if (moved.count !== 1) return false;
    const batchId = additional.length
      ? (await tx.batch.create({ data: { jobId: job.id } })).id
      : null;
    await createOutput(tx, { jobId: job.id, role: 'primary', recipe: primaryRecipe, batchId });
    for (const recipe of additional)
      await createOutput(tx, { jobId: job.id, role: 'additional', recipe, batchId });
    await enqueue(
      tx,
      'segment-video',
      { jobId: job.id },
      { singletonKey: segmentVideoKey(job.id) },
    );
    await scheduleWebhook(
      tx,
      await tx.job.findUniqueOrThrow({ where: { id: job.id } }),
      'job.started',
    );
    // The charge comes last: it takes the account's row lock (PostgreSQL), which every other
    // start of the same account then waits for until this one commits; the shorter it is held,
    // the sooner 50 concurrent starts are through.
    if (!(await debitForJob(tx, { userId, jobId: job.id, amount: credits })))
      throw new ServiceError('conflict', 'The job has already been charged');
    return true;
  });
  if (!won) {
    giveBack?.();
    return null;
  }
  const started = await ports.db.job.findUniqueOrThrow({ where: { id: job.id } });
  return responseOf(started, await startOutputsOf(ports, job.id));
}
