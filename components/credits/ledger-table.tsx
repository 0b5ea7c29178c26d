import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatDate } from '@/components/format';
import { reflowTable } from '@/components/ui/table';
import type { LedgerRow } from '@/lib/services/credits/list-ledger';

const KIND: Record<LedgerRow['kind'], { label: string; tone: BadgeTone }> = {
  grant: { label: 'Grant', tone: 'violet' },
  purchase: { label: 'Purchase', tone: 'green' },
  debit: { label: 'Job charge', tone: 'slate' },
  refund: { label: 'Refund', tone: 'blue' },
};

export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <div>
      <table className={reflowTable.table}>
        <caption className="sr-only">Credit ledger, newest first</caption>
        <thead className={reflowTable.thead}>
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Date
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Type
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Details
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Balance
            </th>
          </tr>
        </thead>
        <tbody className={reflowTable.tbody}>
          {rows.map((r) => (
            <tr key={r.id} className={reflowTable.tr}>
              <td
                data-label="Date"
                className={`py-2.5 pr-4 whitespace-nowrap text-slate-600 ${reflowTable.td}`}
              >
                {formatDate(r.createdAt)}
              </td>
              <td data-label="Type" className={`py-2.5 pr-4 ${reflowTable.td}`}>
                <Badge tone={KIND[r.kind]?.tone ?? 'slate'}>{KIND[r.kind]?.label ?? r.kind}</Badge>
              </td>
              <td
                data-label="Details"
                className={`py-2.5 pr-4 text-slate-700 ${reflowTable.td} max-sm:[&>*]:min-w-0`}
              >
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
              </td>
              <td
                data-label="Amount"
                className={`py-2.5 pr-4 text-right font-medium tabular-nums ${r.amount < 0 ? 'text-slate-900' : 'text-emerald-700'} ${reflowTable.td}`}
              >
                {r.amount > 0 ? `+${r.amount}` : r.amount}
              </td>
              <td
                data-label="Balance"
                className={`py-2.5 text-right tabular-nums text-slate-600 ${reflowTable.td}`}
              >
                {r.balanceAfter}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
