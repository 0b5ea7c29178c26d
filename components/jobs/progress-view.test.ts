import { describe, expect, it } from 'vitest';
import {
  ProgressClock,
  formatEta,
  formatSpeed,
  overallFraction,
  stageLabel,
} from './progress-view';

const p = (over: object) => ({
  stage: 'segment' as const,
  framesDone: 0,
  framesTotal: 183,
  fps: null,
  etaSeconds: null,
  previewUrl: null,
  previewFrame: null,
  ...over,
});

describe('progress view', () => {
  it('names a stage from the first second', () => {
    expect(stageLabel(null)).toBe('Waiting for a worker');
    expect(stageLabel(p({ stage: 'probe' }))).toBe('Preparing the video');
    expect(stageLabel(p({}))).toBe('Finding the subject (loading the model)');
    expect(stageLabel(p({ framesDone: 40 }))).toBe('Finding the subject: frame 40 of 183');
    expect(stageLabel(p({ stage: 'render', framesDone: 10 }))).toBe('Encoding: frame 10 of 183');
    expect(stageLabel(p({ stage: 'thumbnails' }))).toBe('Checking the file');
  });

  it('moves the bar forward across stages', () => {
    const seq = [
      p({ stage: 'probe' }),
      p({ framesDone: 1 }),
      p({ framesDone: 183 }),
      p({ stage: 'render', framesDone: 90 }),
      p({ stage: 'finishing' }),
    ].map(overallFraction);
    for (let i = 1; i < seq.length; i++) expect(seq[i]!).toBeGreaterThan(seq[i - 1]!);
    expect(overallFraction(p({}))).toBeNull(); // loading the model: animated bar
  });

  it('says speed and time in human units', () => {
    expect(formatSpeed(0.1)).toBe('10 s a frame');
    expect(formatSpeed(0.4)).toBe('2.5 s a frame');
    expect(formatSpeed(3.44)).toBe('3.4 frames/s');
    expect(formatSpeed(47.2)).toBe('47 frames/s');
    expect(formatEta(1083)).toBe('about 18 min left');
    expect(formatEta(4)).toBe('a few seconds left');
    expect(formatEta(23)).toBe('about 25 s left');
    expect(formatEta(70)).toBe('about a minute left');
    expect(formatEta(4000)).toBe('about 1 h 7 min left');
  });

  it('measures from the first finished frame and smooths the estimate', () => {
    const c = new ProgressClock(0.3);
    expect(c.update('segment', 0, 100, 0)).toEqual({ eta: null, fps: null }); // loading the model
    // first frame after 80 s: no guess yet
    expect(c.update('segment', 1, 100, 80_000)).toEqual({ eta: null, fps: null });
    expect(c.update('segment', 11, 100, 90_000)).toEqual({ eta: 89, fps: 1 }); // 10 frames in 10 s
    // A stall: 89 s counted down to 79, then moved 30 % of the way to the slower reading (89 frames
    // at 0.5/s).
    const stalled = c.update('segment', 11, 100, 100_000);
    expect(stalled.fps).toBe(0.5);
    expect(stalled.eta).toBeCloseTo(79 + 0.3 * (178 - 79));
    const next = c.update('segment', 41, 100, 110_000); // 40 frames in 30 s since the first
    expect(next.fps).toBeCloseTo(4 / 3);
    expect(next.eta).toBeCloseTo(stalled.eta! - 10 + 0.3 * (59 * 0.75 - (stalled.eta! - 10)));
    expect(c.update('render', 5, 100, 111_000)).toEqual({ eta: null, fps: null });
  });
});
