import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresUnavailable,
  testPostgres,
  type TestPostgres,
} from '../../scripts/lib-stack/test-postgres';
import { debitForJob, getBalance, grantCredits } from '../billing/ledger';
import { resetEnvForTests } from '../env';
import { ServiceError } from '../errors';
import type { Db } from './client';
import { transaction } from './transaction';

// A real PostgreSQL: what is tested is how its locks and Prisma's pool limits meet.
const unavailable = postgresUnavailable();
let server: TestPostgres | undefined;
let url: string;
let db: Db;
let userId: string;

beforeAll(async () => {
  if (unavailable) return;
  server = await testPostgres();
  url = await server.freshDatabase();
  // The process-wide client (db()) on this database, with a pool of 2 connections.
  Object.assign(process.env, {
    DATABASE_URL: url,
    DATABASE_POOL_MAX: '2',
    KEYOUT_SECRET: 'x'.repeat(64),
  });
  resetEnvForTests();
  db = (await import('./client')).db();
  userId = (await db.user.create({ data: { email: 'busy@example.com' } })).id;
  await grantCredits(userId, 100, 'grant', 'test', db);
}, 120_000);
afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

/** Holds the account's row lock from another connection for `ms`, as a long charge would. */
async function holdAccountLock(ms: number): Promise<void> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  await other.query('BEGIN');
  await other.query('SELECT id FROM "User" WHERE id = $1 FOR UPDATE', [userId]);
  setTimeout(() => void other.query('COMMIT').finally(() => void other.end()), ms);
}

describe.skipIf(unavailable)('transactions on PostgreSQL under contention', () => {
  it(
    "waits for an account's row lock held longer than Prisma's " +
      'default 5 s transaction timeout, then charges once',
    async () => {
      await holdAccountLock(6_500);
      const t0 = Date.now();
      expect(
        await transaction(db, (tx) => debitForJob(tx, { userId, jobId: 'locked-1', amount: 1 })),
      ).toBe(true);
      expect(Date.now() - t0).toBeGreaterThan(5_000);
      expect(await db.creditEntry.count({ where: { jobId: 'locked-1' } })).toBe(1);
    },
    60_000,
  );

  it(
    "waits for a pooled connection longer than Prisma's default 2 " +
      's, with every connection busy',
    async () => {
      // Both connections of the pool held by transactions waiting on the lock for 3.5 s; a third
      // transaction waits for one of them to be free.
      await holdAccountLock(3_500);
      const charges = ['pool-1', 'pool-2', 'pool-3'].map((jobId) =>
        transaction(db, (tx) => debitForJob(tx, { userId, jobId, amount: 1 })),
      );
      expect(await Promise.all(charges)).toEqual([true, true, true]);
      expect(await db.creditEntry.count({ where: { jobId: { startsWith: 'pool-' } } })).toBe(3);
    },
    60_000,
  );

  it('runs a transaction again after a write conflict, not after a refusal', async () => {
    let runs = 0;
    const result = await transaction(db, async (tx) => {
      await tx.user.update({ where: { id: userId }, data: { updatedAt: new Date() } });
      if (++runs === 1)
        throw Object.assign(new Error('Transaction failed due to a write conflict or a deadlock'), {
          code: 'P2034',
        });
      return runs;
    });
    expect(result).toBe(2);
    runs = 0;
    const before = await getBalance(userId, db);
    await expect(
      transaction(db, async (tx) => {
        runs++;
        return debitForJob(tx, { userId, jobId: 'too-much', amount: 10_000 });
      }),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(runs).toBe(1);
    expect(await getBalance(userId, db)).toEqual(before);
  });
});
