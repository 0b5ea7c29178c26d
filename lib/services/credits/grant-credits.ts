import { grantCredits as addLedgerEntry } from '../../billing/ledger';
import { db } from '../../db/client';
import { ServiceError } from '../../errors';

/** Adds granted or purchased credits to an account (CLI, admin pages, payment webhooks). */
export async function grantCredits(
  userId: string,
  amount: number,
  opts: { kind?: 'grant' | 'purchase'; note?: string } = {},
): Promise<void> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new ServiceError('not_found', 'User not found');
  await addLedgerEntry(userId, amount, opts.kind ?? 'grant', opts.note ?? '');
}
