import { grantCredits as addLedgerEntry } from '../../billing/ledger';
import { ServiceError } from '../../errors';
import type { Ports } from '../ports';

/** Adds granted or purchased credits to an account (CLI, admin pages, payment webhooks). */
export async function grantCredits(
  ports: Ports,
  userId: string,
  amount: number,
  opts: { kind?: 'grant' | 'purchase'; note?: string } = {},
): Promise<void> {
  const user = await ports.db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new ServiceError('not_found', 'User not found');
  await addLedgerEntry(userId, amount, opts.kind ?? 'grant', opts.note ?? '', ports.db);
}
