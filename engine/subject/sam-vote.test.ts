import { describe, expect, it } from 'vitest';
import type { FloatMap } from '../matte/image';
import { samVote } from './sam-vote';

const W = 40;

/** A W×W map of `base`, with `value` on the pixels `where` picks. */
function map(base: number, value: number, where: (x: number, y: number) => boolean): FloatMap {
  const data = new Float32Array(W * W);
  for (let y = 0; y < W; y++)
    for (let x = 0; x < W; x++) data[y * W + x] = where(x, y) ? value : base;
  return { data, width: W, height: W };
}

/** The model's answer after SAM's vote, the zone the left 30 columns. */
function voted(model: FloatMap, sam: FloatMap): (x: number, y: number) => number {
  const data = model.data.slice();
  samVote(data, W, W, sam, [0, 0, 30, W]);
  return (x, y) => Number(data[y * W + x]!.toFixed(2));
}

describe('samVote', () => {
  it('lets the surer one win a wide disagreement, with its own value', () => {
    // ISNet unsure of a block SAM is sure of: SAM's value. ISNet sure of a block SAM half doubts:
    // ISNet's.
    const at = voted(
      map(0.3, 0.9, (x) => x >= 20 && x < 30),
      map(0.9, 0.45, (x) => x >= 20 && x < 30),
    );
    expect([at(5, 5), at(25, 5)]).toEqual([0.9, 0.9]);
  });

  it(
    'keeps the model along a thin band of disagreement (edge ' + 'detail), and outside the zone',
    () => {
      const at = voted(
        map(0.1, 0.1, () => false),
        map(0.1, 0.95, (x) => x === 10 || x === 35),
      );
      expect([at(10, 5), at(35, 5)]).toEqual([0.1, 0.1]);
    },
  );

  it('leaves pixels where the two agree', () => {
    const at = voted(
      map(0.9, 0.2, (x) => x < 10),
      map(0.6, 0.3, (x) => x < 10),
    );
    expect([at(5, 5), at(20, 5)]).toEqual([0.2, 0.9]);
  });
});
