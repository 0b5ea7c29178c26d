import { beforeAll, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../tests/support/temp-database';
import { grantCredits, hasPurchasedCredits } from '../../billing/ledger';
import { db } from '../../db/client';
import { signUp } from '../accounts/sign-up';
import { startCheckout } from './checkout';
import { listLedger } from './list-ledger';
import { defaultPorts } from '../ports';

tempDatabase('credits');

describe('credits', () => {
  beforeAll(async () => {
    await signUp(defaultPorts, { email: 'member@example.com', password: 'long enough password' });
  });

  it(
    'records a test-mode purchase, lists the ledger with running ' + 'balance and job names',
    async () => {
      const user = await db().user.findUniqueOrThrow({ where: { email: 'member@example.com' } });
      await grantCredits(user.id, 20, 'grant', 'welcome');
      expect(await hasPurchasedCredits(user.id)).toBe(false);
      expect(await startCheckout(defaultPorts, user.id, 'starter', 'http://localhost')).toEqual({
        mode: 'test',
        credits: 100,
      });
      expect(await hasPurchasedCredits(user.id)).toBe(true);
      const job = await db().job.create({
        data: { userId: user.id, filename: 'talk.mp4', status: 'completed' },
      });
      await db().creditEntry.create({
        data: {
          userId: user.id,
          kind: 'debit',
          amount: -7,
          jobId: job.id,
          note: 'Video processing',
        },
      });
      const rows = await listLedger(defaultPorts, user.id);
      expect(rows.map((r) => [r.kind, r.amount, r.balanceAfter, r.jobFilename])).toEqual([
        ['debit', -7, 113, 'talk.mp4'],
        ['purchase', 100, 120, null],
        ['grant', 20, 20, null],
      ]);
      await expect(
        startCheckout(defaultPorts, user.id, 'no-such-pack', 'http://localhost'),
      ).rejects.toThrow('Unknown credit pack');
    },
  );
});
