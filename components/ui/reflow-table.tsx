import type { ReactNode } from 'react';
import { reflowTable } from '@/components/ui/table';

/**
 * A column, defined once for its heading and its cells: `numeric` aligns heading and figures
 * right (in tabular digits), `hidden` keeps the heading for screen readers only, and `cellLabel`
 * (where the heading is too long, or says nothing) is what a reflowed row shows beside the value
 * instead of `label`. `className` styles the body cells, the same for every row or per row.
 */
export interface Column<Row> {
  label: string;
  numeric?: boolean;
  hidden?: boolean;
  cellLabel?: string;
  className?: string | ((row: Row) => string);
  cell: (row: Row) => ReactNode;
}

/** Padding of the header cells and of the body cells. */
export interface TablePad {
  head: string;
  cell: string;
}

/**
 * A table whose rows reflow into labelled blocks on narrow screens, with its caption (for screen
 * readers) and header row; each row is one of `rows`, keyed by its id. The last column has no
 * right padding unless `pad` gives it on both sides.
 */
export function ReflowTable<Row extends { id: string }>({
  caption,
  columns,
  rows,
  rowTestId,
  pad = { head: 'py-2 pr-4', cell: 'py-2.5 pr-4' },
  headClassName = '',
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowTestId?: string;
  pad?: TablePad;
  headClassName?: string;
}) {
  const padOf = (i: number, p: string) => (i === columns.length - 1 ? p.replace(' pr-4', '') : p);
  return (
    <table className={reflowTable.table}>
      <caption className="sr-only">{caption}</caption>
      <thead className={`${reflowTable.thead} ${headClassName}`.trim()}>
        <tr>
          {columns.map((c, i) => (
            <th
              key={c.label}
              scope="col"
              className={`${padOf(i, pad.head)} ${c.numeric ? 'text-right ' : ''}font-medium`}
            >
              {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={reflowTable.tbody}>
        {rows.map((row) => (
          <tr key={row.id} data-testid={rowTestId} className={reflowTable.tr}>
            {columns.map((c, i) => (
              <td
                key={c.label}
                data-label={c.cellLabel ?? c.label}
                className={[
                  padOf(i, pad.cell),
                  c.numeric ? 'text-right tabular-nums' : '',
                  typeof c.className === 'function' ? c.className(row) : c.className,
                  reflowTable.td,
                ]
                  .filter(Boolean)
                  .join(' ')}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
