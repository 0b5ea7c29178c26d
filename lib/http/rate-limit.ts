import { db } from '../db/client';

/**
 * Fixed-window counters, one per bucket and window, shared by every web process through the
 * database (RateLimitCounter). The request path counts in memory and takes no database lock:
 * a write per request (and its fsync) queued GET status behind the worker's writes. Every
 * FLUSH_MS this process adds its new hits to the bucket's row and reads the total back, so with
 * one web process the limits are exact, and with several each sees the others' hits within
 * FLUSH_MS.
 */
export interface WindowState {
  limit: number;
  count: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
}

const WINDOW_MS = 60_000;
const FLUSH_MS = 1_000;

export function currentWindow(now = Date.now()): { start: number; end: number } {
  const start = now - (now % WINDOW_MS);
  return { start, end: start + WINDOW_MS };
}

export function stateOf(count: number, limit: number, now = Date.now()): WindowState {
  return {
    limit,
    count,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(currentWindow(now).end / 1000),
  };
}

interface Counter {
  /** The row's key: bucket and window start. */
  key: string;
  windowEnd: number;
  /** The row's count at the last flush (every process's hits, ours included). */
  stored: number;
  /** This process's hits (or taken-back hits, negative) since then. */
  pending: number;
}

/**
 * One set of counters per process, on globalThis like the database client (lib/db/client.ts):
 * route bundles (and dev reloads) may each load this module, and a key's count must not split
 * between them.
 */
interface Counters {
  byKey: Map<string, Counter>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
}
const shared = globalThis as unknown as { keyoutRateCounters?: Counters };
const state: Counters = (shared.keyoutRateCounters ??= {
  byKey: new Map(),
  timer: null,
  flushing: Promise.resolve(),
});
const counters = state.byKey;

function counter(bucket: string, now: number): Counter {
  const { start, end } = currentWindow(now);
  const key = `${bucket}:${start}`;
  let c = counters.get(key);
  if (!c) {
    c = { key, windowEnd: end, stored: 0, pending: 0 };
    counters.set(key, c);
  }
  return c;
}

function scheduleFlush(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    void flushRateCounters();
  }, FLUSH_MS);
  state.timer.unref();
}

/** Counts one hit in `bucket`'s current window and returns the new state. */
export function hit(bucket: string, limit: number, now = Date.now()): WindowState {
  const c = counter(bucket, now);
  c.pending++;
  scheduleFlush();
  return stateOf(c.stored + c.pending, limit, now);
}

/** The state of `bucket`'s current window without counting a hit. */
export function peek(bucket: string, limit: number, now = Date.now()): WindowState {
  const c = counters.get(`${bucket}:${currentWindow(now).start}`);
  return stateOf(c ? c.stored + c.pending : 0, limit, now);
}

/** Takes back a hit (a start that did not happen should not use up the allowance). */
export function unhit(bucket: string, now = Date.now()): void {
  const c = counter(bucket, now);
  c.pending--;
  scheduleFlush();
}

async function flushOne(c: Counter): Promise<void> {
  const delta = c.pending;
  const rows = db().rateLimitCounter;
  let count: number;
  if (delta > 0) {
    const windowStart = new Date(c.windowEnd - WINDOW_MS);
    ({ count } = await rows.upsert({
      where: { key: c.key },
      create: { key: c.key, count: delta, windowStart, expiresAt: new Date(c.windowEnd) },
      update: { count: { increment: delta } },
      select: { count: true },
    }));
  } else {
    if (delta < 0)
      await rows.updateMany({
        where: { key: c.key, count: { gte: -delta } },
        data: { count: { decrement: -delta } },
      });
    count = (await rows.findUnique({ where: { key: c.key }, select: { count: true } }))?.count ?? 0;
  }
  c.pending -= delta;
  c.stored = count;
}

/**
 * Writes this process's new hits and reads every bucket's total back (one flush at a time).
 * Runs on its own timer; tests and shutdown call it directly.
 */
export function flushRateCounters(now = Date.now()): Promise<void> {
  state.flushing = state.flushing.then(async () => {
    for (const c of [...counters.values()]) {
      if (c.windowEnd <= now) {
        if (c.pending > 0) await flushOne(c).catch(() => undefined);
        counters.delete(c.key);
      } else if (c.pending !== 0) {
        await flushOne(c).catch((e: unknown) =>
          console.error('[rate-limit] writing counters failed', e),
        );
      }
    }
    if (Math.random() < 0.05)
      await db().rateLimitCounter.deleteMany({
        where: { expiresAt: { lt: new Date(now - WINDOW_MS) } },
      });
    if ([...counters.values()].some((c) => c.pending !== 0)) scheduleFlush();
  });
  return state.flushing;
}
