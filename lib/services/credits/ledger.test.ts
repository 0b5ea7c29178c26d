import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, hasPurchasedCredits } from '../../billing/ledger';
import { db } from '../../db/client';
import { resetEnvForTests } from '../../env';
import { signUp } from '../accounts/sign-up';
import { startCheckout } from './checkout';
import { listLedger } from './list-ledger';

// A real SQLite database in a temp DATA_DIR, as the web process uses it.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-credits-'));

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  delete process.env.STRIPE_SECRET_KEY;
  resetEnvForTests();
});
afterAll(async () => {
  await db().$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('credits', () => {
  beforeAll(async () => {
    await signUp({ email: 'member@example.com', password: 'long enough password' });
  });

  it('records a test-mode purchase, lists the ledger with running balance and job names', async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: 'member@example.com' } });
    await grantCredits(user.id, 20, 'grant', 'welcome');
    expect(await hasPurchasedCredits(user.id)).toBe(false);
    expect(await startCheckout(user.id, 'starter', 'http://localhost')).toEqual({ mode: 'test', credits: 100 });
    expect(await hasPurchasedCredits(user.id)).toBe(true);
    const job = await db().job.create({ data: { userId: user.id, filename: 'talk.mp4', status: 'completed' } });
    await db().creditEntry.create({ data: { userId: user.id, kind: 'debit', amount: -7, jobId: job.id, note: 'Video processing' } });
    const rows = await listLedger(user.id);
    expect(rows.map((r) => [r.kind, r.amount, r.balanceAfter, r.jobFilename])).toEqual([
      ['debit', -7, 113, 'talk.mp4'],
      ['purchase', 100, 120, null],
      ['grant', 20, 20, null],
    ]);
    await expect(startCheckout(user.id, 'no-such-pack', 'http://localhost')).rejects.toThrow('Unknown credit pack');
  });
});
