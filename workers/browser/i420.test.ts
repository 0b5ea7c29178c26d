import { describe, expect, it } from 'vitest';
import { i420Size, rgbaToI420 } from './i420';

function solid(width: number, height: number, rgb: number[]): Uint8ClampedArray {
  const px = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < px.length; i += 4) px.set([...rgb, 255], i);
  return px;
}

describe('rgbaToI420 (BT.709 limited range)', () => {
  it.each([
    ['black', [0, 0, 0], [16, 128, 128]],
    ['white', [255, 255, 255], [235, 128, 128]],
    ['grey', [128, 128, 128], [126, 128, 128]],
    // ITU-R BT.709 colour bars at 100 %: Y, Cb, Cr.
    ['red', [255, 0, 0], [63, 102, 240]],
    ['green', [0, 255, 0], [173, 42, 26]],
    ['blue', [0, 0, 255], [32, 240, 118]],
    ['magenta', [255, 0, 255], [78, 214, 230]],
  ])('%s', (_, rgb, [y, u, v]) => {
    const out = rgbaToI420(solid(4, 2, rgb), 4, 2);
    expect(out.length).toBe(i420Size(4, 2));
    expect([...out.subarray(0, 8)]).toEqual(Array(8).fill(y));
    expect([...out.subarray(8, 10)]).toEqual([u, u]);
    expect([...out.subarray(10, 12)]).toEqual([v, v]);
  });

  it('averages each 2×2 block into one chroma sample, also at odd edges', () => {
    // 3×1: a black and a white pixel share the first chroma sample, the last white pixel has its
    // own.
    const px = new Uint8ClampedArray([0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 255]);
    const out = rgbaToI420(px, 3, 1);
    expect(out.length).toBe(3 + 2 * 2);
    expect([...out.subarray(0, 3)]).toEqual([16, 235, 63]);
    expect([...out.subarray(3, 5)]).toEqual([128, 102]);
    expect([...out.subarray(5, 7)]).toEqual([128, 240]);
  });
});
