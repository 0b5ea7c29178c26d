import type { Ports } from '../ports';

export interface LedgerRow {
  id: string;
  kind: 'grant' | 'purchase' | 'debit' | 'refund';
  amount: number;
  note: string;
  createdAt: Date;
  jobId: string | null;
  /** The job's file name while the job still exists (deleted jobs keep their ledger rows). */
  jobFilename: string | null;
  /** Balance right after this entry. */
  balanceAfter: number;
}

/** The whole ledger of an account, newest first, each entry with its job and running balance. */
export async function listLedger(ports: Ports, userId: string): Promise<LedgerRow[]> {
  const entries = await ports.db.creditEntry.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const jobIds = [
    ...new Set(entries.map((e) => e.jobId).filter((id): id is string => Boolean(id))),
  ];
  const jobs = jobIds.length
    ? await ports.db.job.findMany({
        where: { id: { in: jobIds }, userId },
        select: { id: true, filename: true },
      })
    : [];
  const names = new Map(jobs.map((j) => [j.id, j.filename]));
  let balance = 0;
  const rows = entries.map((e): LedgerRow => {
    balance += e.amount;
    return {
      id: e.id,
      kind: e.kind as LedgerRow['kind'],
      amount: e.amount,
      note: e.note,
      createdAt: e.createdAt,
      jobId: e.jobId,
      jobFilename: e.jobId ? (names.get(e.jobId) ?? null) : null,
      balanceAfter: balance,
    };
  });
  return rows.reverse();
}
