import { describe, expect, it } from 'vitest';
import { EtaSmoother, formatEta, formatSpeed, overallFraction, stageLabel } from './progress-view';

const p = (over: object) => ({ stage: 'segment' as const, framesDone: 0, framesTotal: 183, fps: null, etaSeconds: null, previewUrl: null, previewFrame: null, ...over });

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
    const seq = [p({ stage: 'probe' }), p({ framesDone: 1 }), p({ framesDone: 183 }), p({ stage: 'render', framesDone: 90 }), p({ stage: 'finishing' })].map(overallFraction);
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

  it('smooths the estimate and counts it down between readings', () => {
    const s = new EtaSmoother(0.3);
    expect(s.update('segment', 100, 0)).toBe(100);
    expect(s.update('segment', null, 10_000)).toBe(90);
    expect(s.update('segment', 190, 20_000)).toBeCloseTo(80 + 0.3 * 110);
    expect(s.update('render', 5, 21_000)).toBe(5);
  });
});
