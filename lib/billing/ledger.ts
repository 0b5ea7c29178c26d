import { db, type Db, type Prisma } from '../db/client';
import { ServiceError } from '../errors';

/**
 * Money is a ledger (CreditEntry rows); balances are always derived from it. Debits and
 * refunds carry an idempotency key per thing paid for (a job, a refinement), so retries and
 * crashes never double-charge.
 */
export type Tx = Prisma.TransactionClient | Db;

export interface Balance {
  /** Credits ever granted or purchased. */
  total: number;
  /** What can still be spent: the sum of every entry. */
  remaining: number;
  /** Net spend: debits minus refunds. */
  used: number;
}

export async function getBalance(userId: string, tx: Tx = db()): Promise<Balance> {
  const [all, added] = await Promise.all([
    tx.creditEntry.aggregate({ where: { userId }, _sum: { amount: true } }),
    tx.creditEntry.aggregate({
      where: { userId, kind: { in: ['grant', 'purchase'] } },
      _sum: { amount: true },
    }),
  ]);
  const remaining = all._sum.amount ?? 0;
  const total = added._sum.amount ?? 0;
  return { total, remaining, used: total - remaining };
}

export const debitKey = (jobId: string) => `debit:${jobId}`;
export const refundKey = (jobId: string) => `refund:${jobId}`;
export const refinementDebitKey = (refinementId: string) => `debit:refinement:${refinementId}`;
export const refinementRefundKey = (refinementId: string) => `refund:refinement:${refinementId}`;

/**
 * Charges `amount` once under `key`. Call inside the transaction that creates what is paid for,
 * after a write in that transaction (so SQLite holds the write lock while the balance is read).
 * Throws `insufficient_credits` when the balance does not cover it; returns false when the key
 * was already charged.
 *
 * Charges to one account happen one at a time: touching the account's row first takes its row
 * lock on PostgreSQL (held to the end of the transaction, so a concurrent charge reads the
 * balance only after this one committed) and SQLite's database write lock. Without it, two
 * starts on PostgreSQL could both see the same balance and overdraw it.
 */
export async function debit(
  tx: Tx,
  {
    userId,
    jobId,
    amount,
    key,
    note,
  }: { userId: string; jobId: string; amount: number; key: string; note: string },
): Promise<boolean> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`Invalid debit amount ${amount}`);
  await tx.user.update({
    where: { id: userId },
    data: { updatedAt: new Date() },
    select: { id: true },
  });
  const existing = await tx.creditEntry.findUnique({ where: { idempotencyKey: key } });
  if (existing) return false;
  const { remaining } = await getBalance(userId, tx);
  if (remaining < amount) throw new ServiceError('insufficient_credits', 'Insufficient credits');
  await tx.creditEntry.create({
    data: { userId, kind: 'debit', amount: -amount, jobId, idempotencyKey: key, note },
  });
  return true;
}

/**
 * Gives back the debit recorded under `charged`, once (under `key`); nothing when it was never
 * charged.
 */
export async function refund(
  tx: Tx,
  { charged, key, note }: { charged: string; key: string; note: string },
): Promise<void> {
  const debitEntry = await tx.creditEntry.findUnique({ where: { idempotencyKey: charged } });
  if (!debitEntry) return;
  if (await tx.creditEntry.findUnique({ where: { idempotencyKey: key } })) return;
  await tx.creditEntry.create({
    data: {
      userId: debitEntry.userId,
      kind: 'refund',
      amount: -debitEntry.amount,
      jobId: debitEntry.jobId,
      idempotencyKey: key,
      note,
    },
  });
}

/** Charges a job once (key `debit:<jobId>`); see `debit`. */
export async function debitForJob(
  tx: Tx,
  { userId, jobId, amount }: { userId: string; jobId: string; amount: number },
): Promise<boolean> {
  return debit(tx, { userId, jobId, amount, key: debitKey(jobId), note: 'Video processing' });
}

/**
 * Gives back what a failed job was charged (key `refund:<jobId>`). The worker calls this when a job
 * fails.
 */
export async function refundJob(tx: Tx, jobId: string): Promise<void> {
  await refund(tx, {
    charged: debitKey(jobId),
    key: refundKey(jobId),
    note: 'Refund: processing failed',
  });
}

export async function grantCredits(
  userId: string,
  amount: number,
  kind: 'grant' | 'purchase',
  note: string,
  tx: Tx = db(),
): Promise<void> {
  if (!Number.isInteger(amount) || amount <= 0) {
    throw new ServiceError('invalid', 'Credits must be a positive whole number');
  }
  await tx.creditEntry.create({ data: { userId, kind, amount, note } });
}

/** The spec's rule for API keys: credits must have been purchased (a grant alone is not enough). */
export async function hasPurchasedCredits(userId: string, tx: Tx = db()): Promise<boolean> {
  return (await tx.creditEntry.count({ where: { userId, kind: 'purchase' } })) > 0;
}
