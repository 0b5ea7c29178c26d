import { describe, expect, it } from 'vitest';
import type { Box } from '../prompts/detector';
import { REGION, type Candidate } from './choose';
import { chooseInShotKey } from './choose-in-shot';
import { ShotTracks } from './tracks';

const GRID = { width: 256, height: 144 };
const PERSON = 0;
const DOG = 16;

function candidate(c: Partial<Candidate> & Pick<Candidate, 'box'>): Candidate {
  return { classIndex: PERSON, detScore: 0.6, saliency: 0.5, motion: 0, flow: [0, 0], ...c };
}

const shift = (b: Box, dx: number): Box => [b[0] + dx, b[1], b[2] + dx, b[3]];

/**
 * Runs the shot's keys (every 4th frame, motion over 2 frames); each key's chosen members by their
 * index among its candidates.
 */
function runShot(keys: Candidate[][], shot = 0, tracks = new ShotTracks()) {
  return keys.map((candidates, k) => {
    const s = chooseInShotKey(
      tracks,
      candidates,
      { index: 4 * k, shot, gap: 2, motionTrusted: true },
      GRID,
    );
    return s ? s.members.map((m) => candidates.findIndex((c) => c.box === m.box)) : null;
  });
}

describe('chooseInShot', () => {
  it(
    'keeps a large salient static structure out once the person on ' + 'it has moved on two keys',
    () => {
      const keys = [0, 1, 2, 3].map((k) => [
        candidate({
          box: [20, 60, 240, 140],
          classIndex: REGION,
          detScore: 0,
          saliency: 0.8,
          motion: 0,
        }),
        candidate({
          box: shift([60, 30, 90, 100], 10 * k),
          saliency: 0.4,
          motion: 0.9,
          flow: [5, 0],
        }),
      ]);
      const chosen = runShot(keys);
      expect(chosen.slice(1)).toEqual([[1], [1], [1]]);
    },
  );

  it('joins a pushed object of no class to its pusher once they have moved together', () => {
    const keys = [0, 1, 2].map((k) => [
      candidate({
        box: shift([80, 30, 110, 120], 8 * k),
        saliency: 0.6,
        motion: 0.8,
        flow: [4, 0],
      }),
      candidate({
        box: shift([108, 70, 170, 125], 8 * k),
        classIndex: REGION,
        detScore: 0,
        saliency: 0.15,
        motion: 0.7,
        flow: [4, 0],
      }),
    ]);
    const chosen = runShot(keys);
    expect(chosen[0]).toEqual([0]);
    expect(chosen[2]).toEqual([0, 1]);
  });

  it('takes people and a dog walking together as one subject, apart from each other', () => {
    const keys = [0, 1, 2].map((k) => [
      candidate({ box: shift([40, 30, 70, 130], 6 * k), saliency: 0.7, motion: 0.8, flow: [3, 0] }),
      candidate({
        box: shift([120, 35, 148, 130], 6 * k),
        saliency: 0.3,
        motion: 0.7,
        flow: [3, 0],
      }),
      candidate({
        box: shift([190, 100, 230, 130], 6 * k),
        classIndex: DOG,
        saliency: 0.2,
        motion: 0.7,
        flow: [3.2, 0],
      }),
    ]);
    expect(runShot(keys)[2]).toEqual([0, 1, 2]);
  });

  it('keeps a dog that was part of the subject when it runs off from its owner', () => {
    const woman = candidate({ box: [60, 20, 100, 140], saliency: 0.7, motion: 0.5, flow: [1, 0] });
    const dogAt = (x: number, flow: [number, number]) =>
      candidate({ box: [x, 100, x + 40, 135], classIndex: DOG, saliency: 0.5, motion: 0.6, flow });
    const runs: [number, [number, number]][] = [
      [80, [1, 0]],
      [82, [1, 0]],
      [100, [6, 0]],
      [125, [6, 0]],
      [150, [6, 0]],
    ];
    expect(runShot(runs.map(([x, flow]) => [woman, dogAt(x, flow)]))).toEqual(
      runs.map(() => [0, 1]),
    );
  });

  it('does not hand the subject to a passer-by on one key where the subject is half lost', () => {
    const dancer = (k: number, saliency: number) =>
      candidate({
        box: [100, 20, 150, 130],
        saliency,
        motion: 0.6,
        flow: [0, 1],
        detScore: 0.7 + 0 * k,
      });
    const passer = candidate({
      box: [10, 60, 40, 130],
      saliency: 0.45,
      motion: 0.6,
      flow: [-4, 0],
      detScore: 0.5,
    });
    const keys = [dancer(0, 0.7), dancer(1, 0.7), dancer(2, 0.7), dancer(3, 0.1)].map((d) => [
      d,
      { ...passer },
    ]);
    expect(runShot(keys)[3]).toEqual([0]);
  });

  it('starts afresh on a new shot, and an empty shot stays empty', () => {
    const tracks = new ShotTracks();
    runShot([[candidate({ box: [100, 20, 150, 130], saliency: 0.8, motion: 0.5 })]], 0, tracks);
    const faint = candidate({
      box: [0, 0, 256, 144],
      classIndex: REGION,
      detScore: 0,
      saliency: 0.02,
      motion: 0,
    });
    expect(runShot([[faint], [faint]], 1, tracks)).toEqual([null, null]);
  });
});
