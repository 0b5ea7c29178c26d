import type { ReactNode } from 'react';
import { reflowTable } from '@/components/ui/table';

/** A column heading: `numeric` aligns it right, `hidden` keeps it for screen readers only. */
export interface Column {
  label: string;
  numeric?: boolean;
  hidden?: boolean;
}

/**
 * A table whose rows reflow into labelled blocks on narrow screens, with its caption (for screen
 * readers) and header row. `pad` spaces the header cells; the last one has no right padding
 * unless `pad` gives it on both sides.
 */
export function ReflowTable({
  caption,
  columns,
  children,
  pad = 'py-2 pr-4',
  headClassName = '',
}: {
  caption: string;
  columns: Column[];
  children: ReactNode;
  pad?: string;
  headClassName?: string;
}) {
  const lastPad = pad.replace(' pr-4', '');
  const padOf = (i: number) => (i === columns.length - 1 ? lastPad : pad);
  return (
    <table className={reflowTable.table}>
      <caption className="sr-only">{caption}</caption>
      <thead className={`${reflowTable.thead} ${headClassName}`.trim()}>
        <tr>
          {columns.map((c, i) => (
            <th
              key={c.label}
              scope="col"
              className={`${padOf(i)} ${c.numeric ? 'text-right ' : ''}font-medium`}
            >
              {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={reflowTable.tbody}>{children}</tbody>
    </table>
  );
}

/** A cell that shows its column's label beside its value when the row reflows. */
export function Cell({
  label,
  className,
  children,
}: {
  label: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <td data-label={label} className={`${className} ${reflowTable.td}`}>
      {children}
    </td>
  );
}
