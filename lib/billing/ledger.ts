import { db, type Db, type Prisma } from '../db/client';
import { ServiceError } from '../errors';

/**
 * Money is a ledger (CreditEntry rows); balances are always derived from it. Debits and
 * refunds carry an idempotency key per job, so retries and crashes never double-charge.
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
    tx.creditEntry.aggregate({ where: { userId, kind: { in: ['grant', 'purchase'] } }, _sum: { amount: true } }),
  ]);
  const remaining = all._sum.amount ?? 0;
  const total = added._sum.amount ?? 0;
  return { total, remaining, used: total - remaining };
}

export const debitKey = (jobId: string) => `debit:${jobId}`;
export const refundKey = (jobId: string) => `refund:${jobId}`;

/**
 * Charges a job once. Call inside the transaction that also moves the job to processing, after
 * a write in that transaction (so SQLite holds the write lock while the balance is read).
 * Throws `insufficient_credits` when the balance does not cover it; returns false when the job
 * was already charged.
 */
export async function debitForJob(
  tx: Tx,
  { userId, jobId, amount }: { userId: string; jobId: string; amount: number },
): Promise<boolean> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`Invalid debit amount ${amount}`);
  const existing = await tx.creditEntry.findUnique({ where: { idempotencyKey: debitKey(jobId) } });
  if (existing) return false;
  const { remaining } = await getBalance(userId, tx);
  if (remaining < amount) throw new ServiceError('insufficient_credits', 'Insufficient credits');
  await tx.creditEntry.create({
    data: { userId, kind: 'debit', amount: -amount, jobId, idempotencyKey: debitKey(jobId), note: 'Video processing' },
  });
  return true;
}

/**
 * Gives back what a failed job was charged. Idempotent (key `refund:<jobId>`); a job that was
 * never charged gets nothing. The worker calls this when a job fails.
 */
export async function refundJob(tx: Tx, jobId: string): Promise<void> {
  const debit = await tx.creditEntry.findUnique({ where: { idempotencyKey: debitKey(jobId) } });
  if (!debit) return;
  const key = refundKey(jobId);
  if (await tx.creditEntry.findUnique({ where: { idempotencyKey: key } })) return;
  await tx.creditEntry.create({
    data: { userId: debit.userId, kind: 'refund', amount: -debit.amount, jobId, idempotencyKey: key, note: 'Refund: processing failed' },
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
export async function hasPurchasedCredits(userId: string): Promise<boolean> {
  return (await db().creditEntry.count({ where: { userId, kind: 'purchase' } })) > 0;
}
