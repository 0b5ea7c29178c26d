import { describe, expect, it } from 'vitest';
import { planeStats, sampleIndices } from './planes';

describe('validation helpers', () => {
  it('samples early, middle and late frames, without repeats', () => {
    expect(sampleIndices(247)).toEqual([24, 123, 245]);
    expect(sampleIndices(2)).toEqual([0, 1]);
    expect(sampleIndices(1)).toEqual([0]);
  });
  it('summarises a plane: range, mean and partial pixels', () => {
    expect(planeStats(new Uint8Array([0, 255, 128, 255]))).toEqual({
      min: 0,
      max: 255,
      mean: 159.5,
      partial: 1,
    });
    expect(planeStats(new Uint8Array([7, 7]))).toMatchObject({ min: 7, max: 7, partial: 2 });
  });
});
