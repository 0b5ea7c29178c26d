import type { StudioProfile } from '@/workers/browser/studio-pipeline';

const ROWS: { key: keyof StudioProfile; label: string }[] = [
  { key: 'decodeMs', label: 'Decode' },
  { key: 'readbackMs', label: 'Read-back' },
  { key: 'inferMs', label: 'Model' },
  { key: 'refineMs', label: 'Refinement' },
  { key: 'workerOtherMs', label: 'Worker, other' },
  { key: 'encodeMs', label: 'Encode (waiting)' },
  { key: 'waitMs', label: 'Page waiting for worker' },
  { key: 'endToEndMs', label: 'End to end' },
];

/**
 * Where the Studio's time went, ms per frame by stage; the stages overlap, so they add up to more
 * than end to end.
 */
export function StudioProfileTable({ profile }: { profile: StudioProfile }) {
  return (
    <details
      className="text-xs text-slate-600"
      data-testid="studio-profile"
      data-profile={JSON.stringify(profile)}
    >
      <summary className="cursor-pointer">Time per frame by stage</summary>
      <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5">
        {ROWS.map((r) => (
          <div key={r.key} className="contents">
            <dt>{r.label}</dt>
            <dd className="text-right tabular-nums">{profile[r.key].toFixed(1)} ms</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
