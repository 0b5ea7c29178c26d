import { describe, expect, it } from 'vitest';
import { samVote } from './sam-vote';

/** A 4×1 answer and SAM's, the zone over the first three pixels (grid 2×1 at scale 2 → x < 3). */
function voted(model: number[], sam: number[]): number[] {
  const data = Float32Array.from(model);
  samVote(data, 4, 1, { data: Float32Array.from(sam), width: 4, height: 1 }, [0, 0, 1.5, 1], 2);
  return Array.from(data, (v) => Number(v.toFixed(2)));
}

describe('samVote', () => {
  it('leaves pixels where the two agree, and pixels outside the zone', () => {
    expect(voted([0.9, 0.1, 0.6, 0.2], [0.6, 0.3, 0.99, 0.9])).toEqual([0.9, 0.1, 0.6, 0.2]);
  });

  it('lets the surer one win a disagreement, with its own value', () => {
    // ISNet unsure of a part SAM is sure of: SAM's value. ISNet sure of a part SAM half doubts: ISNet's.
    expect(voted([0.3, 0.9, 0.6, 0], [0.9, 0.45, 0.1, 0])).toEqual([0.9, 0.9, 0.1, 0]);
  });
});
