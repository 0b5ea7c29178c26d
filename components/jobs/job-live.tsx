'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { pollJobAction } from '@/app/(dashboard)/jobs/actions';
import { Alert } from '@/components/ui/card';
import { ProgressBar } from '@/components/ui/progress';
import { formatSeconds } from '@/components/format';
import type { JobStatusRecord } from '@/lib/schemas/jobs';

/**
 * Polls the job's status while it runs: a progress bar with frames, speed and ETA. When the job
 * reaches a final state the server page is re-rendered, so downloads appear without a reload.
 */
export function JobLive({ jobId, initial }: { jobId: string; initial: JobStatusRecord }) {
  const router = useRouter();
  const [status, setStatus] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const r = await pollJobAction(jobId).catch(() => null);
      if (stopped) return;
      if (!r) setError('Lost contact with the server; retrying…');
      else if (!r.ok) setError(r.error);
      else {
        setError(null);
        setStatus(r.status);
        if (r.status.status === 'completed' || r.status.status === 'failed') {
          router.refresh();
          return;
        }
      }
      timer = setTimeout(() => void tick(), 1500);
    };
    timer = setTimeout(() => void tick(), 1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId, router]);

  const p = status.progress;
  const value = p && p.frames_total > 0 ? p.frames_done / p.frames_total : null;
  return (
    <div className="space-y-3" data-testid="job-live">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-900">
          {status.status === 'processing' ? (p ? `Frame ${p.frames_done} of ${p.frames_total}` : 'Queued…') : status.status === 'completed' ? 'Done' : 'Waiting…'}
        </span>
        <span className="text-slate-600 tabular-nums">
          {p?.fps ? `${p.fps} frames/s` : ''}
          {p?.eta_seconds != null ? ` · about ${formatSeconds(p.eta_seconds)} left` : ''}
        </span>
      </div>
      <ProgressBar value={status.status === 'completed' ? 1 : value} label="Processing progress" />
      {status.message ? <p className="text-sm text-slate-600" aria-live="polite">{status.message}</p> : null}
      {error ? <Alert tone="warning">{error}</Alert> : null}
    </div>
  );
}
