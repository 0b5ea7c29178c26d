import Link from 'next/link';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatDate } from '@/components/format';
import { Cell, ReflowTable } from '@/components/ui/reflow-table';
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
      <ReflowTable
        caption="Credit ledger, newest first"
        columns={[
          { label: 'Date' },
          { label: 'Type' },
          { label: 'Details' },
          { label: 'Amount', numeric: true },
          { label: 'Balance', numeric: true },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.id} className={reflowTable.tr}>
            <Cell label="Date" className="py-2.5 pr-4 whitespace-nowrap text-slate-600">
              {formatDate(r.createdAt)}
            </Cell>
            <Cell label="Type" className="py-2.5 pr-4">
              <Badge tone={KIND[r.kind]?.tone ?? 'slate'}>{KIND[r.kind]?.label ?? r.kind}</Badge>
            </Cell>
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
              className={
                'py-2.5 pr-4 text-right font-medium tabular-nums ' +
                `${r.amount < 0 ? 'text-slate-900' : 'text-emerald-700'} ` +
                `${reflowTable.td}`
              }
            >
              {r.amount > 0 ? `+${r.amount}` : r.amount}
            </td>
            <Cell label="Balance" className="py-2.5 text-right tabular-nums text-slate-600">
              {r.balanceAfter}
            </Cell>
          </tr>
        ))}
      </ReflowTable>
    </div>
  );
}
