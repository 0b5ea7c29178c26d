/** How a running job's progress reads on the page: one stage line, one bar, one ETA in words. */

import type { JobProgress } from '@/lib/services/jobs/get-job-progress';

/** The bar's share of each stage, so it moves forward through the whole job and never back. */
const SPANS: Record<JobProgress['stage'], [number, number]> = {
  queued: [0, 0],
  probe: [0, 0.02],
  'fetch-background': [0.02, 0.04],
  segment: [0.04, 0.8],
  render: [0.8, 0.95],
  exports: [0.95, 0.97],
  thumbnails: [0.97, 0.99],
  finishing: [0.99, 1],
};

export function stageLabel(p: JobProgress | null): string {
  if (!p) return 'Waiting for a worker';
  const frames =
    p.framesTotal > 0 && p.framesDone > 0
      ? `frame ${Math.min(p.framesDone, p.framesTotal)} of ${p.framesTotal}`
      : null;
  switch (p.stage) {
    case 'queued':
      return 'Waiting for a worker';
    case 'probe':
      return 'Preparing the video';
    case 'fetch-background':
      return 'Fetching the background';
    case 'segment':
      return frames ? `Finding the subject: ${frames}` : 'Finding the subject (loading the model)';
    case 'render':
      return frames ? `Encoding: ${frames}` : 'Encoding';
    case 'exports':
      return 'Encoding the extra exports';
    case 'thumbnails':
    case 'finishing':
      return 'Checking the file';
  }
}

/**
 * 0..1 over the whole job, or null when nothing measurable has happened yet (indeterminate bar).
 */
export function overallFraction(p: JobProgress | null): number | null {
  if (!p || p.stage === 'queued') return null;
  const [from, to] = SPANS[p.stage];
  const within = p.framesTotal > 0 ? Math.min(1, p.framesDone / p.framesTotal) : 0;
  // Before the first finished frame the model is loading and looking ahead: an animated bar, not an
  // empty one.
  if (p.stage === 'segment' && within === 0) return null;
  return from + (to - from) * within;
}

/** "12 frames/s", "2.4 frames/s", or for slow work "3.5 s a frame". */
export function formatSpeed(fps: number | null): string | null {
  if (!fps || !Number.isFinite(fps) || fps <= 0) return null;
  if (fps >= 10) return `${Math.round(fps)} frames/s`;
  if (fps >= 1) return `${fps.toFixed(1)} frames/s`;
  const s = 1 / fps;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s a frame`;
}

/**
 * Human words for a remaining time: "a few seconds", "about 25 s", "about 3 min", "about 1 h 10
 * min".
 */
export function formatEta(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 10) return 'a few seconds left';
  if (seconds < 55) return `about ${Math.max(10, Math.round(seconds / 5) * 5)} s left`;
  if (seconds < 90) return 'about a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/**
 * Speed and time left as this page has seen them: measured between its own readings from the
 * first finished frame on (so model loading and look-ahead do not make the first estimate
 * hours long), then smoothed: between readings the estimate counts down with the clock, and a
 * new reading moves it only part of the way. A new stage starts over.
 */
export class ProgressClock {
  private stage: string | null = null;
  private first: { done: number; at: number } | null = null;
  private eta: number | null = null;
  private etaAt = 0;

  constructor(private readonly weight = 0.3) {}

  update(
    stage: string,
    done: number,
    total: number,
    now: number,
  ): { eta: number | null; fps: number | null } {
    if (stage !== this.stage) {
      this.stage = stage;
      this.first = null;
      this.eta = null;
    }
    if (done <= 0 || total <= 0) return { eta: null, fps: null };
    if (!this.first) {
      this.first = { done, at: now };
      return { eta: null, fps: null };
    }
    const seconds = (now - this.first.at) / 1000;
    const frames = done - this.first.done;
    const counted = this.eta === null ? null : Math.max(0, this.eta - (now - this.etaAt) / 1000);
    this.etaAt = now;
    if (frames <= 0 || seconds <= 0) {
      this.eta = counted;
      return { eta: counted, fps: null };
    }
    const fps = frames / seconds;
    const reading = Math.max(0, total - done) / fps;
    this.eta = counted === null ? reading : counted + this.weight * (reading - counted);
    return { eta: this.eta, fps };
  }
}
