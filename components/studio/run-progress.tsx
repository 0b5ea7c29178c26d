import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress';
import { formatSeconds } from '@/components/format';
import type { Phase } from './use-studio-run';

/** A running run: its progress, what it is doing, and Cancel. */
export function RunProgress({
  phase,
  onCancel,
}: {
  phase: Extract<Phase, { kind: 'running' }>;
  onCancel: () => void;
}) {
  const p = phase.progress;
  return (
    <div className="space-y-3" data-testid="studio-progress">
      <ProgressBar value={p ? p.framesDone / p.framesTotal : null} label="Studio progress" />
      {phase.started?.modelReason ? (
        <p className="text-xs text-slate-600" data-testid="studio-model-reason">
          {phase.started.modelReason}
        </p>
      ) : null}
      <p className="text-sm text-slate-700 tabular-nums" aria-live="polite">
        {p
          ? `Frame ${p.framesDone} of ` +
            `${p.framesTotal}${p.fps ? ` · ${p.fps.toFixed(1)} frames/s` : ''} ` +
            '· ' +
            (p.etaSeconds !== null
              ? `about ${formatSeconds(p.etaSeconds)} left`
              : 'estimating time left…')
          : phase.started
            ? 'Finding the subject in the first frames…'
            : 'Loading the model…'}
      </p>
      <Button variant="secondary" className="w-full" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
