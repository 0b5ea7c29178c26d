import type { Db } from '../../../lib/db/client';
import type { Stack } from './stack';

/**
 * Prisma on the stack's database, for checking what the API did (ledger rows, queue rows).
 * One stack per test file: env is read once per process.
 */
export async function stackDb(stack: Stack): Promise<Db> {
  Object.assign(process.env, stack.env);
  const { resetEnvForTests } = await import('../../../lib/env');
  resetEnvForTests();
  const { db } = await import('../../../lib/db/client');
  return db();
}

/**
 * Waits until the next rate-limit window has at least `seconds` left, so a burst stays in one
 * window.
 */
export async function roomInWindow(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 200));
}
