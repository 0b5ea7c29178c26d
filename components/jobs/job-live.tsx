'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { pollJobAction } from '@/app/(dashboard)/jobs/actions';
import { Alert } from '@/components/ui/card';
import { ProgressBar } from '@/components/ui/progress';
import type { JobProgress } from '@/lib/services/jobs/get-job-progress';
import {
  formatEta,
  formatSpeed,
  overallFraction,
  ProgressClock,
  stageLabel,
} from './progress-view';

/**
 * A running job as it goes: the stage in words, one bar over the whole job, one smoothed ETA,
 * the speed, and the newest finished frame over a checkerboard. Polls the server; when the job
 * ends the server page is re-rendered, so the result appears without a reload.
 */
export function JobLive({
  jobId,
  initial,
  width,
  height,
}: {
  jobId: string;
  initial: JobProgress | null;
  width: number | null;
  height: number | null;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [timing, setTiming] = useState<{ eta: number | null; fps: number | null }>({
    eta: null,
    fps: null,
  });
  const [error, setError] = useState<string | null>(null);
  const clock = useRef(new ProgressClock());

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const r = await pollJobAction(jobId).catch(() => null);
      if (stopped) return;
      if (!r) setError('Lost contact with the server; trying again…');
      else if (!r.ok) setError(r.error);
      else {
        setError(null);
        if (r.status.status !== 'processing') {
          router.refresh();
          return;
        }
        setProgress(r.progress);
        const p = r.progress;
        setTiming(
          p
            ? clock.current.update(p.stage, p.framesDone, p.framesTotal, Date.now())
            : { eta: null, fps: null },
        );
      }
      timer = setTimeout(() => void tick(), 1500);
    };
    timer = setTimeout(() => void tick(), 500);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId, router]);

  const framed = progress?.stage === 'segment' || progress?.stage === 'render';
  const speed = framed ? formatSpeed(timing.fps) : null;
  const left = framed
    ? (formatEta(timing.eta) ?? (progress.framesDone > 0 ? 'estimating the time left…' : null))
    : null;
  return (
    <div className="space-y-4" data-testid="job-live">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span className="font-medium text-slate-900" data-testid="job-stage" aria-live="polite">
          {stageLabel(progress)}
        </span>
        <span className="text-slate-600 tabular-nums" data-testid="job-eta">
          {[left, speed].filter(Boolean).join(' · ')}
        </span>
      </div>
      <ProgressBar value={overallFraction(progress)} label="Processing progress" />
      <div
        className={
          'checkerboard relative mx-auto max-h-[50vh] overflow-hidden ' +
          'rounded-lg ring-1 ring-slate-200'
        }
        style={{ aspectRatio: width && height ? `${width} / ${height}` : '16 / 9' }}
      >
        {progress?.previewUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- signed, changing URL
          <img
            src={progress.previewUrl}
            alt={`The cut-out of frame ${(progress.previewFrame ?? 0) + 1} so far`}
            data-testid="job-preview"
            className="absolute inset-0 h-full w-full object-contain"
          />
        ) : (
          <p
            className={
              'absolute inset-0 flex items-center justify-center p-4 ' +
              'text-center text-sm text-slate-600'
            }
          >
            A preview of the cut-out appears here as soon as the first frames are done.
          </p>
        )}
      </div>
      {error ? <Alert tone="warning">{error}</Alert> : null}
    </div>
  );
}
