import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetEnvForTests } from '../env';
import { ServiceError } from '../errors';
import { debitForJob, getBalance, grantCredits, refundJob } from './ledger';

// A real SQLite database in a temp DATA_DIR: the ledger is only as good as its constraints.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-ledger-'));
let userId: string;

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  resetEnvForTests();
  userId = (await db().user.create({ data: { email: 'ledger@example.com' } })).id;
});
afterAll(async () => {
  await db().$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('ledger', () => {
  it('derives total, remaining and used from the entries', async () => {
    await grantCredits(userId, 10, 'grant', 'welcome');
    await grantCredits(userId, 5, 'purchase', 'pack');
    expect(await getBalance(userId)).toEqual({ total: 15, remaining: 15, used: 0 });
    await expect(grantCredits(userId, 0, 'grant', '')).rejects.toBeInstanceOf(ServiceError);
  });

  it('debits a job once, refuses when the balance is short, and refunds once', async () => {
    const charged = await db().$transaction((tx) => debitForJob(tx, { userId, jobId: 'job-1', amount: 6 }));
    expect(charged).toBe(true);
    expect(await db().$transaction((tx) => debitForJob(tx, { userId, jobId: 'job-1', amount: 6 }))).toBe(false);
    expect(await getBalance(userId)).toEqual({ total: 15, remaining: 9, used: 6 });

    const short = db().$transaction((tx) => debitForJob(tx, { userId, jobId: 'job-2', amount: 10 }));
    await expect(short).rejects.toMatchObject({ kind: 'insufficient_credits', message: 'Insufficient credits' });
    expect(await getBalance(userId)).toEqual({ total: 15, remaining: 9, used: 6 });

    await db().$transaction((tx) => refundJob(tx, 'job-1'));
    await db().$transaction((tx) => refundJob(tx, 'job-1'));
    await db().$transaction((tx) => refundJob(tx, 'never-charged'));
    expect(await getBalance(userId)).toEqual({ total: 15, remaining: 15, used: 0 });
    const entries = await db().creditEntry.findMany({ where: { jobId: 'job-1' }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.kind, e.amount, e.idempotencyKey])).toEqual([
      ['debit', -6, 'debit:job-1'],
      ['refund', 6, 'refund:job-1'],
    ]);
  });
});
