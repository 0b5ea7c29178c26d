import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresUnavailable,
  testPostgres,
  type TestPostgres,
} from '../../scripts/lib-stack/test-postgres';
import { tempDatabase } from '../../tests/support/temp-database';
import { db as appDb, type Db } from '../db/client';
import { postgresClient } from '../db/postgres';
import { ServiceError } from '../errors';
import { debitForJob, getBalance, grantCredits, refundJob } from './ledger';

// Real databases: the ledger is only as good as its constraints and locks.
tempDatabase('ledger');
const unavailable = postgresUnavailable();
let pg: TestPostgres | undefined;

afterAll(async () => {
  await pg?.stop();
});

const databases: [string, string | null, () => Promise<Db>][] = [
  ['SQLite', null, () => Promise.resolve(appDb())],
  [
    'PostgreSQL',
    unavailable,
    async () => {
      pg = await testPostgres();
      return postgresClient(await pg.freshDatabase(), 20);
    },
  ],
];

describe.each(databases)('ledger on %s', (_name, skip, open) => {
  let db: Db;
  let userId: string;
  beforeAll(async () => {
    db = await open();
    userId = (await db.user.create({ data: { email: 'ledger@example.com' } })).id;
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  it.skipIf(skip)('derives total, remaining and used from the entries', async () => {
    await grantCredits(userId, 10, 'grant', 'welcome', db);
    await grantCredits(userId, 5, 'purchase', 'pack', db);
    expect(await getBalance(userId, db)).toEqual({ total: 15, remaining: 15, used: 0 });
    await expect(grantCredits(userId, 0, 'grant', '', db)).rejects.toBeInstanceOf(ServiceError);
  });

  it.skipIf(skip)(
    'debits a job once, refuses when the balance is short, and refunds once',
    async () => {
      const charged = await db.$transaction((tx) =>
        debitForJob(tx, { userId, jobId: 'job-1', amount: 6 }),
      );
      expect(charged).toBe(true);
      expect(
        await db.$transaction((tx) => debitForJob(tx, { userId, jobId: 'job-1', amount: 6 })),
      ).toBe(false);
      expect(await getBalance(userId, db)).toEqual({ total: 15, remaining: 9, used: 6 });

      const short = db.$transaction((tx) =>
        debitForJob(tx, { userId, jobId: 'job-2', amount: 10 }),
      );
      await expect(short).rejects.toMatchObject({
        kind: 'insufficient_credits',
        message: 'Insufficient credits',
      });
      expect(await getBalance(userId, db)).toEqual({ total: 15, remaining: 9, used: 6 });

      await db.$transaction((tx) => refundJob(tx, 'job-1'));
      await db.$transaction((tx) => refundJob(tx, 'job-1'));
      await db.$transaction((tx) => refundJob(tx, 'never-charged'));
      expect(await getBalance(userId, db)).toEqual({ total: 15, remaining: 15, used: 0 });
      const entries = await db.creditEntry.findMany({
        where: { jobId: 'job-1' },
        orderBy: { createdAt: 'asc' },
      });
      expect(entries.map((e) => [e.kind, e.amount, e.idempotencyKey])).toEqual([
        ['debit', -6, 'debit:job-1'],
        ['refund', 6, 'refund:job-1'],
      ]);
    },
  );

  it.skipIf(skip)(
    'charges exactly as many of 50 concurrent jobs as the balance covers',
    async () => {
      const owner = (await db.user.create({ data: { email: 'ten@example.com' } })).id;
      await grantCredits(owner, 10, 'grant', 'ten', db);
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          db.$transaction((tx) => debitForJob(tx, { userId: owner, jobId: `c-${i}`, amount: 1 }), {
            timeout: 60_000,
            maxWait: 60_000,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      for (const r of results)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({ kind: 'insufficient_credits' });
      expect(await getBalance(owner, db)).toMatchObject({ remaining: 0 });
    },
  );
});
