import { describe, expect, it } from 'vitest';
import { frameLimit, normalizeFilters } from './normalize';

describe('normalizeFilters', () => {
  it(
    'keeps the probed size, starts at zero, holds a constant rate ' +
      'and ends a second after the probed duration',
    () => {
      expect(
        normalizeFilters({ width: 320, height: 240, fpsRational: '25/1', duration: 2 }),
      ).toEqual(['scale=320:240', 'setpts=PTS-STARTPTS', 'fps=25/1', 'trim=end_frame=75']);
    },
  );

  it('rounds the limit up for fractional rates and durations', () => {
    // 10.01 s at 29.97 fps: 11.01 s of frames is 329.97, so 330.
    expect(frameLimit({ fpsRational: '30000/1001', duration: 10.01 })).toBe(330);
  });
});
