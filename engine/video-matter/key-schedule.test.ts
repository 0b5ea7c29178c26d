import { describe, expect, it } from 'vitest';
import type { KeyframeOptions } from '../tiers';
import {
  becomesKey,
  closesShot,
  keySpacing,
  keysKnown,
  mayBecomeKey,
  midpointOf,
  NO_KEY,
  oldestKeyNeeded,
} from './key-schedule';

const keyframes = (o: Partial<KeyframeOptions> = {}): KeyframeOptions => ({
  interval: 8,
  fuseRadius: 1,
  bisectBelow: 0,
  bisectUnexplainedAbove: 0,
  unexplainedScale: 0,
  flowSide: 128,
  cutThreshold: 0.15,
  ...o,
});

describe('keySpacing', () => {
  it('reaches to the next key and that key’s fused neighbours', () => {
    const s = keySpacing(keyframes(), true, undefined);
    expect(s).toEqual({
      interval: 8,
      keyReach: 8,
      reach: 15,
      depth: 0,
      latency: 15,
      bisecting: false,
      midpointReach: 0,
    });
  });

  it('runs every frame without smart sampling, and holds nothing back without fusion', () => {
    const s = keySpacing(keyframes({ fuseRadius: 0 }), false, undefined);
    expect(s).toMatchObject({ interval: 1, keyReach: 0, reach: 0, latency: 0 });
  });

  it('lets `interval` more frames in for each run outstanding off the thread', () => {
    const s = keySpacing(keyframes({ fuseRadius: 0 }), true, 2.7);
    expect(s).toMatchObject({ reach: 7, depth: 2, latency: 7 + 2 * 8 });
  });

  it('keeps the frames up to half an interval after the last key while bisecting', () => {
    expect(keySpacing(keyframes({ interval: 7, bisectBelow: 0.6 }), true, 0)).toMatchObject({
      bisecting: true,
      midpointReach: 4,
    });
    expect(keySpacing(keyframes({ bisectUnexplainedAbove: 0.2 }), true, 0)).toMatchObject({
      bisecting: true,
      midpointReach: 4,
    });
  });

  it('reads an interval below 1 as every frame', () => {
    expect(keySpacing(keyframes({ interval: 0 }), true, 0).interval).toBe(1);
  });
});

describe('becomesKey', () => {
  it('makes the first frame, the first of each shot and every interval-th frame a key', () => {
    expect(becomesKey({ index: 0, shot: 0 }, NO_KEY, 8)).toBe(true);
    expect(becomesKey({ index: 5, shot: 0 }, { index: 0, shot: 0 }, 8)).toBe(false);
    expect(becomesKey({ index: 8, shot: 0 }, { index: 0, shot: 0 }, 8)).toBe(true);
    expect(becomesKey({ index: 5, shot: 1 }, { index: 4, shot: 0 }, 8)).toBe(true);
  });

  it('makes a frame the caller asked for a key', () => {
    expect(becomesKey({ index: 3, shot: 0 }, { index: 0, shot: 0 }, 8, new Set([3]))).toBe(true);
    expect(becomesKey({ index: 4, shot: 0 }, { index: 0, shot: 0 }, 8, new Set([3]))).toBe(false);
  });
});

describe('midpointOf', () => {
  it('is the frame halfway between two keys of a shot, rounded', () => {
    expect(midpointOf({ index: 0, shot: 0 }, { index: 8, shot: 0 }, true)).toBe(4);
    expect(midpointOf({ index: 0, shot: 0 }, { index: 5, shot: 0 }, true)).toBe(3);
  });

  it('is none without bisection, across a cut, or between neighbours', () => {
    expect(midpointOf({ index: 0, shot: 0 }, { index: 8, shot: 0 }, false)).toBeNull();
    expect(midpointOf({ index: 0, shot: 0 }, { index: 8, shot: 1 }, true)).toBeNull();
    expect(midpointOf({ index: 7, shot: 0 }, { index: 8, shot: 0 }, true)).toBeNull();
    expect(midpointOf(NO_KEY, { index: 0, shot: 0 }, true)).toBeNull();
  });
});

describe('closesShot', () => {
  it('makes the newest frame of the current shot a key unless it is one', () => {
    expect(closesShot({ index: 5, shot: 0 }, { index: 0, shot: 0 }, 0)).toBe(true);
    expect(closesShot({ index: 5, shot: 0 }, { index: 5, shot: 0 }, 0)).toBe(false);
    expect(closesShot({ index: 5, shot: 0 }, { index: 0, shot: 0 }, 1)).toBe(false);
    expect(closesShot(undefined, NO_KEY, 0)).toBe(false);
  });
});

describe('mayBecomeKey', () => {
  const s = keySpacing(keyframes({ bisectBelow: 0.6 }), true, 0);

  it(
    'keeps the newest frame, pending midpoints and the frames a ' + 'midpoint may still fall on',
    () => {
      expect(mayBecomeKey(20, 20, 8, s, new Set())).toBe(true);
      expect(mayBecomeKey(3, 20, 8, s, new Set([3]))).toBe(true);
      expect(mayBecomeKey(12, 20, 8, s, new Set())).toBe(true);
      expect(mayBecomeKey(13, 20, 8, s, new Set())).toBe(false);
      expect(mayBecomeKey(8, 20, 8, s, new Set())).toBe(false);
    },
  );
});

describe('keysKnown', () => {
  it('waits until `reach` frames after the frame are pushed', () => {
    expect(keysKnown({ index: 2, shot: 0 }, { index: 16, shot: 0 }, 15, false)).toBe(false);
    expect(keysKnown({ index: 2, shot: 0 }, { index: 17, shot: 0 }, 15, false)).toBe(true);
  });

  it('knows them once the frame’s shot or the video has ended', () => {
    expect(keysKnown({ index: 2, shot: 0 }, { index: 3, shot: 1 }, 15, false)).toBe(true);
    expect(keysKnown({ index: 2, shot: 0 }, { index: 3, shot: 0 }, 15, true)).toBe(true);
  });
});

describe('oldestKeyNeeded', () => {
  it('is the key before the next frame and the raw keys that key fuses', () => {
    const s = keySpacing(keyframes(), true, 0);
    expect(oldestKeyNeeded(20, s)).toBe(20 + 1 - 8 - 8);
  });
});
