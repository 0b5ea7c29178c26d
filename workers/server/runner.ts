import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { MediaError, ToolError } from '../../lib/media/ffmpeg';
import { FetchError } from '../../lib/net/safe-fetch';
import {
  catalogue,
  JOB_KINDS,
  kindsFor,
  type JobKind,
  type Lane,
  type PayloadOf,
} from '../../lib/queue/job-kinds';
import { PermanentJobError } from '../../lib/queue/errors';
import type { ClaimedJob, QueueProvider } from '../../lib/queue/provider';
import { ServiceError } from '../../lib/errors';
import type { Ports, WorkContext } from '../../lib/services/ports';

/**
 * A unit of work's context (its ports, its signal: aborted on timeout, on shutdown and when the
 * lease is lost).
 */
export interface HandlerContext extends WorkContext {
  /** The queue row's id (not the Job's). */
  queueJobId: string;
  workerId: string;
  attempt: number;
  maxAttempts: number;
}

export interface KindHandler<K extends JobKind> {
  run(payload: PayloadOf<K>, ctx: HandlerContext): Promise<void>;
  /**
   * Called once when the row fails for good (a permanent error, or its attempts are used up),
   * with a message fit for the user. Must be idempotent: a crash after it runs re-runs it.
   */
  onFailure?(payload: PayloadOf<K>, message: string, ctx: HandlerContext): Promise<void>;
}

/** One handler per catalogue kind: a missing one fails the type check. */
export type HandlerMap = { [K in JobKind]: KindHandler<K> };

/** Refuses to run when the handler map and the catalogue disagree (checked again at runtime). */
export function assertHandlersMatchCatalogue(handlers: Record<string, unknown>): void {
  const have = Object.keys(handlers);
  const missing = JOB_KINDS.filter((k) => !have.includes(k));
  const unknown = have.filter((k) => !(JOB_KINDS as string[]).includes(k));
  if (missing.length || unknown.length) {
    throw new Error(
      `Worker handlers do not match the job catalogue (missing: ${missing.join(', ') || 'none'}; ` +
        `unknown: ${unknown.join(', ') || 'none'}). Refusing to start.`,
    );
  }
}

export interface Logger {
  info(msg: string): void;
  error(msg: string): void;
}

export interface RunnerOptions {
  handlers: HandlerMap;
  /** What the handlers' use cases work with (lib/services/ports.ts). */
  ports: Ports;
  provider: QueueProvider;
  concurrency: number;
  /** The lanes this worker takes (WORKER_LANES); every lane by default. */
  lanes?: readonly Lane[];
  /** Called when a slot finds no work (the worker relays the outbox here). */
  onIdle?: () => Promise<void>;
  /** A claim is valid this long unless renewed; a killed worker's row is due again after it. */
  leaseMs?: number;
  /** How often an idle slot looks for work. */
  pollMs?: number;
  /**
   * How often a running row's lease is renewed, which is also how soon the work stops once its
   * row is gone (the job was deleted) or taken over.
   */
  heartbeatMs?: number;
  workerId?: string;
  log?: Logger;
}

export const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 500;
const DEFAULT_HEARTBEAT_MS = 2_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60_000;

class Shutdown extends Error {}
class LeaseLost extends Error {}
class TimedOut extends Error {}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Errors that no retry can fix; everything else is retried with the kind's backoff. */
function isPermanent(e: unknown): boolean {
  return e instanceof PermanentJobError || e instanceof MediaError;
}

/**
 * Claims rows (claim → heartbeat → handle → complete/retry/fail) on `concurrency` slots.
 * stop() drains: no new claims; running work may finish within a grace period, then it is
 * aborted and its rows released for another worker.
 */
export class Runner {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly log: Logger;
  private stopping = false;
  private slots: Promise<void>[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly sleepers = new Set<() => void>();
  private lastPrune = 0;

  constructor(private readonly opts: RunnerOptions) {
    assertHandlersMatchCatalogue(opts.handlers);
    this.workerId = opts.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.heartbeatMs = Math.min(
      opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      Math.floor(this.leaseMs / 3),
    );
    this.log = opts.log ?? { info: (m) => console.log(m), error: (m) => console.error(m) };
  }

  /**
   * `concurrency` slots for every kind of the worker's lanes, plus one reserved for short network
   * calls (webhooks).
   */
  start(): void {
    const kinds = kindsFor(this.opts.lanes ?? ['gpu', 'cpu']);
    for (let i = 0; i < this.opts.concurrency; i++) this.slots.push(this.slot(kinds.all));
    if (kinds.reserved.length) this.slots.push(this.slot(kinds.reserved));
  }

  /** Stops claiming, lets running work finish for `graceMs`, then aborts and releases the rest. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    const all = Promise.all(this.slots);
    const finished = await Promise.race([all.then(() => true), sleep(graceMs).then(() => false)]);
    if (!finished) {
      for (const ac of this.running.values())
        ac.abort(new Shutdown('The worker is shutting down.'));
      await all;
    }
  }

  private async slot(kinds: readonly JobKind[]): Promise<void> {
    while (!this.stopping) {
      let job: ClaimedJob | null = null;
      try {
        job = await this.opts.provider.claim(kinds, this.workerId, this.leaseMs);
      } catch (e) {
        this.log.error(`[worker] claiming failed: ${messageOf(e)}`);
      }
      if (job) {
        await this.execute(job);
        continue;
      }
      await this.opts.onIdle?.();
      await this.pruneSometimes();
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(t);
          this.sleepers.delete(wake);
          resolve();
        };
        const t = setTimeout(wake, this.pollMs);
        this.sleepers.add(wake);
      });
    }
  }

  private async pruneSometimes(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    try {
      await this.opts.provider.prune(new Date(Date.now() - KEEP_FINISHED_MS));
    } catch (e) {
      this.log.error(`[worker] pruning finished queue rows failed: ${messageOf(e)}`);
    }
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { provider } = this.opts;
    const kind = job.kind as JobKind;
    const spec = catalogue[kind];
    const handler = this.opts.handlers[kind] as KindHandler<JobKind>;
    const tag = `[worker] ${kind} ${job.id} (attempt ${job.attempts}/${job.maxAttempts})`;

    let payload: PayloadOf<JobKind>;
    try {
      payload = spec.payload.parse(JSON.parse(job.payloadJson));
    } catch (e) {
      this.log.error(`${tag}: invalid payload, failing for good: ${messageOf(e)}`);
      await provider.fail(job.id, this.workerId, `Invalid payload: ${messageOf(e)}`);
      return;
    }

    const ac = new AbortController();
    this.running.set(job.id, ac);
    const ctx: HandlerContext = {
      ports: this.opts.ports,
      log: (line) => this.log.info(`${tag}: ${line}`),
      queueJobId: job.id,
      workerId: this.workerId,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      signal: ac.signal,
    };
    const timeout = setTimeout(
      () =>
        ac.abort(
          new TimedOut(
            'Processing took longer than the limit of ' +
              `${Math.round(spec.timeoutMs / 60_000)} minutes.`,
          ),
        ),
      spec.timeoutMs,
    );
    const heartbeat = setInterval(() => {
      provider.heartbeat(job.id, this.workerId, this.leaseMs).then(
        (mine) => {
          if (!mine) ac.abort(new LeaseLost('The lease on this job was lost.'));
        },
        (e: unknown) => this.log.error(`${tag}: heartbeat failed: ${messageOf(e)}`),
      );
    }, this.heartbeatMs);

    try {
      if (job.attempts > job.maxAttempts) {
        // Its earlier workers died mid-attempt (a lease lapsed each time): do not try again.
        throw new PermanentJobError(
          'Processing stopped unexpectedly several times; the job was given up.',
        );
      }
      // The payload names what the job works on (jobId, outputId, …): operators grep for it.
      this.log.info(
        `${tag}: started, ${Object.entries(payload)
          .map(([k, v]) => `${k} ${String(v)}`)
          .join(', ')}`,
      );
      await handler.run(payload, ctx);
      await provider.complete(job.id, this.workerId);
      this.log.info(`${tag}: completed`);
    } catch (e) {
      await this.settleFailure(job, handler, payload, ctx, e, tag);
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
      this.running.delete(job.id);
    }
  }

  private async settleFailure(
    job: ClaimedJob,
    handler: KindHandler<JobKind>,
    payload: PayloadOf<JobKind>,
    ctx: HandlerContext,
    thrown: unknown,
    tag: string,
  ): Promise<void> {
    const { provider } = this.opts;
    const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : thrown;
    try {
      if (reason instanceof LeaseLost) {
        this.log.info(
          `${tag}: stopped: its row was cancelled (job deleted) or taken over by another worker`,
        );
        return;
      }
      // While draining, a failure is most likely the shutdown itself (Ctrl-C signals ffmpeg
      // too): give the row back untouched rather than spend an attempt on it.
      if (reason instanceof Shutdown || (this.stopping && !(thrown instanceof PermanentJobError))) {
        this.log.info(`${tag}: released for another worker (shutdown)`);
        await provider.release(job.id, this.workerId);
        return;
      }
      const message = messageOf(reason instanceof TimedOut ? reason : thrown);
      const permanent = reason instanceof TimedOut || isPermanent(thrown);
      if (!permanent && job.attempts < job.maxAttempts) {
        const delay = catalogue[job.kind as JobKind].backoffMs(job.attempts);
        this.log.error(`${tag}: failed, retrying in ${Math.round(delay / 1000)} s: ${message}`);
        await provider.retry(job.id, this.workerId, message, new Date(Date.now() + delay));
        return;
      }
      this.log.error(`${tag}: failed for good: ${message}`);
      await handler.onFailure?.(
        payload,
        this.userMessage(permanent, job, thrown, message, tag),
        ctx,
      );
      await provider.fail(job.id, this.workerId, message);
    } catch (e) {
      // The row stays active; its lease lapses and it is tried again.
      this.log.error(`${tag}: recording the failure failed: ${messageOf(e)}`);
    }
  }

  /**
   * What the job's owner reads. Errors written for users are shown as they are; any other
   * (a database error, a bug) becomes words and a reference to the log line with the details.
   */
  private userMessage(
    permanent: boolean,
    job: ClaimedJob,
    thrown: unknown,
    message: string,
    tag: string,
  ): string {
    if (permanent) return message;
    // A transient error that used up the retries is not the user's fault: say so plainly.
    const failed = `Processing failed after ${job.attempts} attempts`;
    if (thrown instanceof FetchError || thrown instanceof ServiceError)
      return `${failed}: ${message}`;
    const ref = randomUUID().slice(0, 8);
    const detail = thrown instanceof Error && thrown.stack ? thrown.stack : message;
    this.log.error(
      `${tag}: reference ${ref}: ` +
        `${detail}${thrown instanceof ToolError ? `\n${thrown.output}` : ''}`,
    );
    return `${failed} because of an internal error (reference ${ref}).`;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
