import type { Db, Prisma } from './client';

/**
 * How long an interactive transaction may wait for a pooled connection, and run. Prisma's
 * defaults (2 s and 5 s) suit uncontended rows, but requests here queue on one row on purpose:
 * charges to one account take its row lock one after another (lib/billing/ledger.ts), so 50
 * starts at once on a busy host wait seconds for the 49 others, holding the pool's connections
 * meanwhile. Past either limit Prisma rolls the transaction back (P2028), and the start, which
 * only had to wait its turn, answered 500.
 */
export const TRANSACTION_LIMITS = { maxWait: 15_000, timeout: 30_000 } as const;
const ATTEMPTS = 3;

/**
 * Prisma errors after which the transaction was rolled back having changed nothing, so running
 * it again is safe: P2028 (no connection within maxWait, or past its timeout) and P2034 (a
 * write conflict or deadlock). Matched by code, not class: the PostgreSQL client is generated
 * separately (lib/db/postgres.ts) and throws its own error classes.
 */
export function rolledBack(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'P2028' || code === 'P2034';
}

/**
 * The one way to run an interactive transaction: `fn` in a transaction of `db` with the limits
 * above, run again (up to 3 times in all) when it was rolled back by one of the errors above. `fn`
 * must only touch the database (it may run more than once); its first statement must be a
 * write on SQLite (lib/db/client.ts). A ServiceError or any other error is not retried.
 */
export async function transaction<T>(
  db: Db,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(fn, TRANSACTION_LIMITS);
    } catch (e) {
      if (attempt >= ATTEMPTS || !rolledBack(e)) throw e;
      console.warn(
        '[db] transaction rolled back ' +
          `(${(e as { code: string }).code}), running it again (attempt ` +
          `${attempt + 1}/${ATTEMPTS})`,
      );
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
    }
  }
}
