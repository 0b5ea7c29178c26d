import { db } from '../db/client';

/**
 * Fixed-window counters in the database (RateLimitCounter), one row per bucket and window, so
 * every web process shares the same count. The upsert is a single atomic statement.
 */
export interface WindowState {
  limit: number;
  count: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
}

const WINDOW_MS = 60_000;

export function currentWindow(now = Date.now()): { start: number; end: number } {
  const start = now - (now % WINDOW_MS);
  return { start, end: start + WINDOW_MS };
}

export function stateOf(count: number, limit: number, now = Date.now()): WindowState {
  return { limit, count, remaining: Math.max(0, limit - count), resetAt: Math.ceil(currentWindow(now).end / 1000) };
}

/** Counts one hit in `bucket`'s current window and returns the new state. */
export async function hit(bucket: string, limit: number, now = Date.now()): Promise<WindowState> {
  const { start, end } = currentWindow(now);
  const key = `${bucket}:${start}`;
  const row = await db().rateLimitCounter.upsert({
    where: { key },
    create: { key, count: 1, windowStart: new Date(start), expiresAt: new Date(end) },
    update: { count: { increment: 1 } },
    select: { count: true },
  });
  if (Math.random() < 0.01) await sweepExpired(now);
  return stateOf(row.count, limit, now);
}

/** The state of `bucket`'s current window without counting a hit. */
export async function peek(bucket: string, limit: number, now = Date.now()): Promise<WindowState> {
  const key = `${bucket}:${currentWindow(now).start}`;
  const row = await db().rateLimitCounter.findUnique({ where: { key }, select: { count: true } });
  return stateOf(row?.count ?? 0, limit, now);
}

/** Takes back a hit (a start that did not happen should not use up the allowance). */
export async function unhit(bucket: string, now = Date.now()): Promise<void> {
  const key = `${bucket}:${currentWindow(now).start}`;
  await db().rateLimitCounter.updateMany({ where: { key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

async function sweepExpired(now: number): Promise<void> {
  await db().rateLimitCounter.deleteMany({ where: { expiresAt: { lt: new Date(now - WINDOW_MS) } } });
}
