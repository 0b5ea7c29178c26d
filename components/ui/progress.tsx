/** A determinate progress bar (value 0..1) or an indeterminate one (value null). */
export function ProgressBar({ value, label }: { value: number | null; label: string }) {
  const pct = value === null ? null : Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct ?? undefined}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={
          'h-full rounded-full bg-indigo-600 transition-[width] ' +
          `duration-300 ${pct === null ? 'w-1/3 animate-pulse' : ''}`
        }
        style={pct === null ? undefined : { width: `${pct}%` }}
      />
    </div>
  );
}
