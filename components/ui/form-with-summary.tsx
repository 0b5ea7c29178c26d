import type { ReactNode } from 'react';

/**
 * A form's cards in the main column and its summary beside them, kept in view while the cards
 * scroll on wide screens and placed below them on narrow ones.
 */
export function FormWithSummary({
  children,
  summary,
}: {
  children: ReactNode;
  summary: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
      <div className="space-y-6">{children}</div>
      <aside className="lg:sticky lg:top-10 lg:self-start">{summary}</aside>
    </div>
  );
}
