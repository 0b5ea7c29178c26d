import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatDate } from '@/components/format';
import type { LedgerRow } from '@/lib/services/dashboard/list-ledger';

const KIND: Record<LedgerRow['kind'], { label: string; tone: BadgeTone }> = {
  grant: { label: 'Grant', tone: 'violet' },
  purchase: { label: 'Purchase', tone: 'green' },
  debit: { label: 'Job charge', tone: 'slate' },
  refund: { label: 'Refund', tone: 'blue' },
};

export function LedgerTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[640px] text-left text-sm">
        <caption className="sr-only">Credit ledger, newest first</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Date</th>
            <th scope="col" className="py-2 pr-4 font-medium">Type</th>
            <th scope="col" className="py-2 pr-4 font-medium">Details</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Amount</th>
            <th scope="col" className="py-2 text-right font-medium">Balance</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="py-2.5 pr-4 whitespace-nowrap text-slate-600">{formatDate(r.createdAt)}</td>
              <td className="py-2.5 pr-4">
                <Badge tone={KIND[r.kind]?.tone ?? 'slate'}>{KIND[r.kind]?.label ?? r.kind}</Badge>
              </td>
              <td className="py-2.5 pr-4 text-slate-700">
                {r.note}
                {r.jobId ? (
                  <>
                    {r.note ? ' · ' : ''}
                    {r.jobFilename ? (
                      <Link href={`/jobs/${r.jobId}`} className="font-medium text-indigo-600 hover:text-indigo-500">
                        {r.jobFilename}
                      </Link>
                    ) : (
                      <span className="text-slate-500">deleted job {r.jobId.slice(0, 8)}</span>
                    )}
                  </>
                ) : null}
              </td>
              <td className={`py-2.5 pr-4 text-right font-medium tabular-nums ${r.amount < 0 ? 'text-slate-900' : 'text-emerald-700'}`}>
                {r.amount > 0 ? `+${r.amount}` : r.amount}
              </td>
              <td className="py-2.5 text-right tabular-nums text-slate-600">{r.balanceAfter}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
