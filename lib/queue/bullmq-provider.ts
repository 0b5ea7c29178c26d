import { randomUUID } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type Job, type MinimalJob } from 'bullmq';
import { Redis } from 'ioredis';
import { catalogue, isJobKind, JOB_KINDS } from './job-kinds';
import type { ClaimedJob, QueueMessage, QueueProvider } from './provider';

/**
 * The queue on BullMQ (Redis), chosen over pg-boss 10 and BullMQ's PostgreSQL backend by
 * measurement (docs/operations.md, scripts/bench-queue-engines.ts). One BullMQ queue per job
 * kind, so a worker takes exactly the kinds of its lanes. The runner keeps its pull loop
 * (workers/server/runner.ts) and BullMQ's own machinery does the rest:
 *   - lease:      the job's lock (lockDuration = the runner's lease), renewed by heartbeat()
 *                 through extendLock;
 *   - killed workers: BullMQ's stalled-job checker puts a job whose lock lapsed back in the
 *                 queue (its stalledCounter counts the lost attempt);
 *   - retries:    moveToFailed with attempts and a backoff (the delay the runner chose from the
 *                 catalogue), recorded on the job with its error;
 *   - dead letters: the failed set (UnrecoverableError), kept a week like finished jobs;
 *   - idempotent sends: the outbox message id is the BullMQ job id, and a singleton key is
 *                 BullMQ's deduplication id (no second job while one is queued or running).
 */
/** Every key of the installation's queues starts with it. */
export const BULLMQ_PREFIX = 'keyout';
const KEEP_FINISHED_S = 7 * 24 * 60 * 60;
/**
 * BullMQ would fail a job that stalled this often itself; the runner gives up first (attempts >
 * maxAttempts) and runs onFailure.
 */
const MAX_STALLS = Math.max(...JOB_KINDS.map((k) => catalogue[k].retries + 1)) + 1;

interface Held {
  job: Job;
  token: string;
  /** Set by retry(): the backoff strategy hands BullMQ this delay. */
  retryAt?: number;
}

/** What the runner counts as attempts: failed ones plus those whose worker died, plus this one. */
const attemptOf = (job: Job) => job.attemptsMade + job.stalledCounter + 1;

export class BullmqQueueProvider implements QueueProvider {
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  private readonly held = new Map<string, Held>();
  private next = 0;

  /** `prefix` namespaces every key (one per installation sharing a Redis; tests use their own). */
  constructor(
    redisUrl: string,
    private readonly prefix = BULLMQ_PREFIX,
  ) {
    // Commands must wait for a reconnect rather than fail (BullMQ requires it on worker
    // connections).
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  }

  private queue(kind: string): Queue {
    let q = this.queues.get(kind);
    if (!q) {
      q = new Queue(kind, { connection: this.connection, prefix: this.prefix });
      this.queues.set(kind, q);
    }
    return q;
  }

  private worker(kind: string, leaseMs: number): Worker {
    let w = this.workers.get(kind);
    if (!w) {
      // Manual mode (no processor): the runner fetches with getNextJob and settles each job.
      w = new Worker(kind, null, {
        connection: this.connection,
        prefix: this.prefix,
        lockDuration: leaseMs,
        stalledInterval: Math.max(1000, Math.floor(leaseMs / 2)),
        maxStalledCount: MAX_STALLS,
        settings: {
          backoffStrategy: (_made: number, _type?: string, _err?: Error, job?: MinimalJob) => {
            const at = job?.id ? this.held.get(job.id)?.retryAt : undefined;
            return at === undefined ? 0 : Math.max(1, at - Date.now());
          },
        },
      });
      w.on('error', (e) => console.error(`[queue] ${kind}: ${e.message}`));
      void w.startStalledCheckTimer();
      this.workers.set(kind, w);
    }
    return w;
  }

  async send(m: QueueMessage): Promise<void> {
    const spec = isJobKind(m.kind) ? catalogue[m.kind] : null;
    if (!spec) throw new Error(`Unknown job kind ${m.kind}`);
    await this.queue(m.kind).add(m.kind, m.payload, {
      jobId: m.id,
      delay: Math.max(0, (m.runAt?.getTime() ?? 0) - Date.now()),
      attempts: m.maxAttempts,
      backoff: { type: 'catalogue' },
      removeOnComplete: { age: KEEP_FINISHED_S },
      removeOnFail: { age: KEEP_FINISHED_S },
      ...(m.singletonKey ? { deduplication: { id: m.singletonKey } } : {}),
    });
  }

  async claim(
    kinds: readonly string[],
    workerId: string,
    leaseMs: number,
  ): Promise<ClaimedJob | null> {
    // Round-robin over the slot's kinds, so a busy kind cannot starve the others.
    const start = this.next++;
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[(start + i) % kinds.length]!;
      const token = `${workerId}:${randomUUID()}`;
      const job = (await this.worker(kind, leaseMs).getNextJob(token, { block: false })) as
        Job | undefined;
      if (!job?.id) continue;
      this.held.set(job.id, { job, token });
      return {
        id: job.id,
        kind,
        payloadJson: JSON.stringify(job.data),
        attempts: attemptOf(job),
        maxAttempts: job.opts.attempts ?? 1,
      };
    }
    return null;
  }

  /**
   * Runs `settle` on a job this process holds, then forgets it. A lock another worker took over
   * (the lease was lost) makes it a no-op, as with the embedded queue.
   */
  private async settle(id: string, settle: (h: Held) => Promise<unknown>): Promise<void> {
    const h = this.held.get(id);
    if (!h) return;
    try {
      await settle(h);
    } catch (e) {
      if (
        !/lock|not in the active state|missing key/i.test(
          e instanceof Error ? e.message : String(e),
        )
      )
        throw e;
    } finally {
      this.held.delete(id);
    }
  }

  async heartbeat(id: string, _workerId: string, leaseMs: number): Promise<boolean> {
    const h = this.held.get(id);
    if (!h) return false;
    try {
      return (await h.job.extendLock(h.token, leaseMs)) === 1;
    } catch {
      return false;
    }
  }

  complete(id: string): Promise<void> {
    return this.settle(id, (h) => h.job.moveToCompleted(null, h.token, false));
  }

  fail(id: string, _workerId: string, error: string): Promise<void> {
    return this.settle(id, (h) =>
      h.job.moveToFailed(new UnrecoverableError(error), h.token, false),
    );
  }

  retry(id: string, _workerId: string, error: string, runAt: Date): Promise<void> {
    return this.settle(id, (h) => {
      h.retryAt = runAt.getTime();
      return h.job.moveToFailed(new Error(error), h.token, false);
    });
  }

  release(id: string): Promise<void> {
    return this.settle(id, (h) => h.job.moveToWait(h.token));
  }

  async prune(before: Date): Promise<number> {
    const grace = Math.max(0, Date.now() - before.getTime());
    let removed = 0;
    for (const kind of JOB_KINDS) {
      for (const state of ['completed', 'failed'] as const)
        removed += (await this.queue(kind).clean(grace, 1000, state)).length;
    }
    return removed;
  }

  /**
   * Removes the waiting and delayed jobs whose payload names one of `ids` (a deleted job's work).
   * BullMQ cannot remove a job another worker holds locked: that handler finds its job deleted
   * and storage refuses its writes (lib/storage/job-guard.ts). Scans the pending jobs, which
   * suits how rarely a job is deleted.
   */
  async cancel(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    let removed = 0;
    for (const kind of JOB_KINDS) {
      for (const job of await this.queue(kind).getJobs(['waiting', 'delayed', 'prioritized'])) {
        const payload = JSON.stringify(job.data);
        if (!ids.some((id) => payload.includes(id))) continue;
        // Taken meanwhile by a worker: left to the job guard, as above.
        if (
          await job.remove().then(
            () => true,
            () => false,
          )
        )
          removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.close(true)));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit();
  }
}
