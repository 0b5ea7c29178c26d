import type { ReactNode } from 'react';

const tones = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  blue: 'bg-sky-50 text-sky-700 ring-sky-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  red: 'bg-rose-50 text-rose-700 ring-rose-200',
  violet: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
};

export type BadgeTone = keyof typeof tones;

export function Badge({ tone = 'slate', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs ' +
        `font-medium ring-1 ring-inset ${tones[tone]}`
      }
    >
      {children}
    </span>
  );
}
