import { describe, expect, it } from 'vitest';
import { spillOutside } from './metrics';

/** A w × h mask with the rectangle [x0, x1) × [y0, y1) set. */
function rect(w: number, h: number, x0: number, y0: number, x1: number, y1: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * w + x] = 255;
  return m;
}

describe('spillOutside', () => {
  const gt = rect(40, 40, 10, 10, 30, 30);

  it('counts none of a mask within r of the ground truth', () => {
    expect(spillOutside(rect(40, 40, 7, 7, 33, 33), gt, 40, 40, 3)).toBe(0);
  });

  it('counts the share of a band wider than r around the ground truth', () => {
    // 30² subject, of which the 20² truth grown by 3 (26²) is near: (900 − 676) / 900.
    expect(spillOutside(rect(40, 40, 5, 5, 35, 35), gt, 40, 40, 3)).toBeCloseTo(
      (900 - 676) / 900,
      6,
    );
  });

  it('is 0 for an empty mask', () => {
    expect(spillOutside(new Uint8Array(1600), gt, 40, 40, 3)).toBe(0);
  });
});
