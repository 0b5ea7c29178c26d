import { createHash } from 'node:crypto';
import { describePrompt } from '../../../engine/prompts/describe-prompt';
import {
  parseConcepts,
  SUPPORTED_CONCEPTS,
  UnknownConceptError,
  type Concept,
} from '../../../engine/prompts/concepts';
import { debit, refinementDebitKey } from '../../billing/ledger';
import { priceJob } from '../../billing/pricing';
import { openVocabularyModel } from '../../models/open-vocabulary';
import type { Refinement } from '../../db/generated/client';
import { jobNotFound, ServiceError } from '../../errors';
import { enqueue, transact } from '../../queue';
import type { RefineMaskRequest, RefinementRecord } from '../../schemas/refinements';
import { completedMaskVersion, RUNNING } from '../masks/mask-versions';
import { promptColumn, type StoredPrompt } from './columns';
import type { Ports } from '../ports';
import { ownedJob } from '../owned-job';

/**
 * The Refinement lifecycle. `POST /v1/jobs/{id}/refine-mask` charges the model's rate for the
 * video's length and queues a `refine-mask` unit of work (gpu lane) that reads the active mask
 * version, writes the next version number and, when it completes, makes it active. One runs
 * per job at a time; a failure refunds and leaves a gap in the version numbers. An
 * Idempotency-Key (scoped to account and job) replays the original refinement with no new
 * charge when the request is the same, and is a 409 when it is not.
 */

export const REFINEMENT_NOT_FOUND = 'Refinement not found or does not belong to user';
const DEFAULT_EDGE_SIZE = 512;

const conflict = (message: string, details?: string) =>
  new ServiceError('conflict', message, details);

/** The request with its defaults filled in, as its fingerprint and the stored row see it. */
function canonical(req: RefineMaskRequest) {
  const edge = req.edge_cleanup;
  const p = req.prompt!;
  return {
    op: req.op ?? 'add',
    model: req.model,
    prompt:
      p.mode === 'points'
        ? {
            mode: 'points' as const,
            time: p.time,
            points: p.points.map((q) => ({ x: q.x, y: q.y, include: q.include ?? true })),
          }
        : { mode: 'text' as const, text: p.text },
    edge_cleanup: { enabled: edge?.enabled ?? false, size: edge?.size ?? DEFAULT_EDGE_SIZE },
    from_version: req.from_version ?? null,
  };
}

const fingerprintOf = (c: ReturnType<typeof canonical>) =>
  createHash('sha256').update(JSON.stringify(c)).digest('hex');

type CanonicalPrompt = ReturnType<typeof canonical>['prompt'];

/**
 * What the worker will look for, checked against the job before any charge: the concepts a
 * text names, or the clicked frame (the one shown at `time` on the job's constant-rate
 * timeline) with points inside the picture.
 */
function storedPromptOf(
  prompt: CanonicalPrompt,
  job: {
    lengthSeconds: number;
    fps: number;
    frameCount: number | null;
    width: number | null;
    height: number | null;
  },
): StoredPrompt {
  if (prompt.mode === 'text') return { ...prompt, concepts: conceptsOf(prompt.text) };
  if (prompt.time >= job.lengthSeconds)
    throw new ServiceError(
      'invalid',
      'prompt.time must be within the video: at least 0 and under ' +
        `${Number(job.lengthSeconds.toFixed(3))} seconds`,
    );
  const { width, height } = job;
  if (!width || !height) throw new Error('A completed job without its size');
  const outside = prompt.points.findIndex((p) => p.x > width || p.y > height);
  if (outside >= 0)
    throw new ServiceError(
      'invalid',
      `prompt.points[${outside}] is outside the picture`,
      `Points are in the video's display pixels: x from 0 to ${width}, y from 0 to ${height}.`,
    );
  const frame = Math.min(
    Math.floor(prompt.time * job.fps + 1e-6),
    (job.frameCount ?? Infinity) - 1,
  );
  return { ...prompt, frame };
}

/**
 * The concepts a text names, with the open-vocabulary model's phrases where one is configured; else
 * a 400 listing what is supported.
 */
function conceptsOf(text: string): Concept[] {
  const open = openVocabularyModel();
  try {
    return parseConcepts(text, open);
  } catch (e) {
    if (!(e instanceof UnknownConceptError)) throw e;
    const supported = open
      ? `Supported: ${SUPPORTED_CONCEPTS} Also phrases of words the ` +
        `open-vocabulary model "${open.manifest.id}" knows`
      : `Supported: ${SUPPORTED_CONCEPTS}`;
    const unknownWords = e.words.length
      ? ` (it does not know ${e.words.map((w) => `"${w}"`).join(', ')})`
      : '';
    throw new ServiceError(
      'invalid',
      `${e.message}. Supported: person, person parts and the 80 COCO ` +
        'object ' +
        `classes${open ? ', and phrases for the open-vocabulary model' : ''}`,
      `${supported}${unknownWords}.`,
    );
  }
}

export function refinementRecord(r: Refinement): RefinementRecord {
  const prompt = promptColumn.read(r.promptJson);
  return {
    refinement_id: r.id,
    job_id: r.jobId,
    status: r.status as RefinementRecord['status'],
    op: r.op as RefinementRecord['op'],
    model: r.model,
    version: r.version,
    credits_used: r.creditsUsed,
    created_at: r.createdAt.toISOString(),
    from_version: r.fromVersion,
    prompt:
      prompt.mode === 'text'
        ? { mode: prompt.mode, text: prompt.text }
        : { mode: prompt.mode, time: prompt.time, frame: prompt.frame, points: prompt.points },
    concepts: prompt.mode === 'text' ? prompt.concepts.map((c) => c.name) : [],
    edge_cleanup: {
      enabled: r.edgeCleanupSize !== null,
      size: r.edgeCleanupSize ?? DEFAULT_EDGE_SIZE,
    },
    started_at: r.startedAt?.toISOString() ?? null,
    completed_at: r.completedAt?.toISOString() ?? null,
    ...(r.status === 'failed' ? { error: r.error ?? 'The refinement failed' } : {}),
  };
}

/**
 * A replay of `key` with the same request answers its refinement as it is now; different inputs are
 * a 409.
 */
function replayed(existing: Refinement, fingerprint: string): RefinementRecord {
  if (existing.fingerprint !== fingerprint) {
    throw conflict(
      'Idempotency-Key was already used with a different request',
      'Use a new Idempotency-Key for a different refinement.',
    );
  }
  return refinementRecord(existing);
}

/** `POST /v1/jobs/{id}/refine-mask`. */
export async function requestRefinement(
  ports: Ports,
  userId: string,
  jobId: string,
  req: RefineMaskRequest,
  key: string | null,
): Promise<RefinementRecord> {
  const job = await ownedJob(ports, userId, jobId);
  const request = canonical(req);
  const fingerprint = fingerprintOf(request);
  const byKey = key
    ? () =>
        ports.db.refinement.findUnique({
          where: { userId_jobId_idempotencyKey: { userId, jobId, idempotencyKey: key } },
        })
    : null;
  const earlier = await byKey?.();
  if (earlier) return replayed(earlier, fingerprint);

  if (job.status !== 'completed') {
    throw new ServiceError(
      'invalid',
      `Refinement needs a completed job; this one is ${job.status}`,
      'Wait for the job to complete (GET /v1/jobs/{id}/status), then refine its mask.',
    );
  }
  if (!job.lengthSeconds || !job.fps)
    throw new Error(`Job ${job.id} is completed without probe results`);
  const stored = storedPromptOf(request.prompt, {
    ...job,
    lengthSeconds: job.lengthSeconds,
    fps: job.fps,
  });
  const credits = priceJob({
    model: request.model,
    durationSeconds: job.lengthSeconds,
    fps: job.fps,
  });

  // Answered as created (queued), not read back after the commit: a worker may already have claimed
  // it.
  let created: Refinement | null;
  try {
    created = await transact(ports, async (tx) => {
      // The write comes first: SQLite's write lock (PostgreSQL's row lock) orders concurrent
      // requests.
      const current = await tx.job.update({
        where: { id: job.id },
        data: { updatedAt: new Date() },
      });
      if (
        key &&
        (await tx.refinement.findUnique({
          where: { userId_jobId_idempotencyKey: { userId, jobId, idempotencyKey: key } },
        }))
      )
        return null;
      const active = current.activeMaskVersion;
      if (active === null || !(await completedMaskVersion(ports, current, null)))
        throw new ServiceError('invalid', 'This job has no mask to refine');
      // A refinement refines the version the client saw: `from_version` where it says so, else
      // the one active when its request arrived. Another activated since is a 409 (spec rule 6).
      const seen = request.from_version ?? job.activeMaskVersion;
      if (seen !== active) {
        throw conflict(
          `The active mask changed: it is version ${active}, not ${seen}`,
          'List the versions (GET /v1/jobs/{id}/mask-versions) and refine from the active one.',
        );
      }
      const running = await tx.refinement.findFirst({
        where: { jobId, status: { in: RUNNING } },
        select: { id: true },
      });
      if (running)
        throw conflict(
          'Another refinement of this job is running',
          `Refinement ${running.id} must finish first (GET /v1/refinements/${running.id}).`,
        );
      const last = await tx.maskVersion.aggregate({ where: { jobId }, _max: { version: true } });
      const version = (last._max.version ?? 0) + 1;
      await tx.maskVersion.create({
        data: { jobId, version, status: 'queued', source: 'refinement' },
      });
      const created = await tx.refinement.create({
        data: {
          jobId,
          userId,
          op: request.op,
          model: request.model,
          promptJson: promptColumn.write(stored),
          edgeCleanupSize: request.edge_cleanup.enabled ? request.edge_cleanup.size : null,
          fromVersion: active,
          version,
          creditsUsed: credits,
          idempotencyKey: key,
          fingerprint,
        },
      });
      await debit(tx, {
        userId,
        jobId,
        amount: credits,
        key: refinementDebitKey(created.id),
        note: `Mask refinement (${request.op} ${describePrompt(stored)})`,
      });
      await enqueue(
        tx,
        'refine-mask',
        { refinementId: created.id },
        { singletonKey: `refine-mask:${created.id}` },
      );
      return created;
    });
  } catch (e) {
    // Two requests with one key raced past the first look: the loser answers as a replay.
    const raced = await byKey?.();
    if (raced) return replayed(raced, fingerprint);
    throw e;
  }
  if (!created) return replayed((await byKey!())!, fingerprint);
  return refinementRecord(created);
}

/** `GET /v1/refinements/{id}`. */
export async function getRefinement(
  ports: Ports,
  userId: string,
  refinementId: string,
): Promise<RefinementRecord> {
  const r = await ports.db.refinement.findFirst({ where: { id: refinementId, userId } });
  if (!r) throw new ServiceError('not_found', REFINEMENT_NOT_FOUND);
  return refinementRecord(r);
}

/**
 * Every refinement of one of the caller's jobs, oldest first (the job page's Mask versions panel).
 */
export async function listRefinements(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<RefinementRecord[]> {
  const job = await ports.db.job.findFirst({
    where: { id: jobId, userId },
    include: { refinements: { orderBy: { createdAt: 'asc' } } },
  });
  if (!job) throw jobNotFound();
  return job.refinements.map(refinementRecord);
}
