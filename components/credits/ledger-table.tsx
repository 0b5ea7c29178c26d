import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatDate } from '@/components/format';
import { type Column, ReflowTable } from '@/components/ui/reflow-table';
import type { LedgerRow } from '@/lib/services/credits/list-ledger';

const KIND: Record<LedgerRow['kind'], { label: string; tone: BadgeTone }> = {
  grant: { label: 'Grant', tone: 'violet' },
  purchase: { label: 'Purchase', tone: 'green' },
  debit: { label: 'Job charge', tone: 'slate' },
  refund: { label: 'Refund', tone: 'blue' },
};

const COLUMNS: Column<LedgerRow>[] = [
  {
    label: 'Date',
    className: 'whitespace-nowrap text-slate-600',
    cell: (r) => formatDate(r.createdAt),
  },
  {
    label: 'Type',
    cell: (r) => (
      <Badge tone={KIND[r.kind]?.tone ?? 'slate'}>{KIND[r.kind]?.label ?? r.kind}</Badge>
    ),
  },
  { label: 'Details', className: 'text-slate-700 max-sm:[&>*]:min-w-0', cell: details },
  {
    label: 'Amount',
    numeric: true,
    className: (r) => `font-medium ${r.amount < 0 ? 'text-slate-900' : 'text-emerald-700'}`,
    cell: (r) => (r.amount > 0 ? `+${r.amount}` : r.amount),
  },
  { label: 'Balance', numeric: true, className: 'text-slate-600', cell: (r) => r.balanceAfter },
];

/** The entry's note and the job it was for, linked while the job exists. */
function details(r: LedgerRow) {
  return (
    <>
      {r.note}
      {r.jobId ? (
        <>
          {r.note ? ' · ' : ''}
          {r.jobFilename ? (
            <Link
              href={`/jobs/${r.jobId}`}
              className="font-medium break-all text-indigo-700 hover:text-indigo-500"
            >
              {r.jobFilename}
            </Link>
          ) : (
            <span className="text-slate-500">deleted job {r.jobId.slice(0, 8)}</span>
          )}
        </>
      ) : null}
    </>
  );
}

export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <div>
      <ReflowTable caption="Credit ledger, newest first" columns={COLUMNS} rows={rows} />
    </div>
  );
}
