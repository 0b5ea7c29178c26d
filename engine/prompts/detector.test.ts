import { describe, expect, it } from 'vitest';
import { boxIou, boxOf, decodeDetections } from './detector';
import { samDecoderFeeds, samMask } from './sam';

describe('decodeDetections', () => {
  it(
    'finds heatmap peaks of the wanted classes, boxes from the four ' +
      'sides at stride 4, best first, without duplicates',
    () => {
      const C = 3;
      const S = 8;
      const heat = new Float32Array(C * S * S);
      const sides = new Float32Array(4 * S * S);
      const put = (c: number, x: number, y: number, v: number, d: number) => {
        heat[c * S * S + y * S + x] = v;
        for (let k = 0; k < 4; k++) sides[k * S * S + y * S + x] = d;
      };
      put(2, 4, 4, 0.9, 8);
      put(2, 4, 5, 0.5, 8); // beside the peak: not a peak
      put(2, 1, 1, 0.3, 2);
      put(0, 6, 6, 0.8, 2); // a class not asked for
      const found = decodeDetections(
        { data: heat, dims: [1, C, S, S] },
        { data: sides, dims: [1, 4, S, S] },
        { classes: new Set([2]), minScore: 0.2, nmsIou: 0.5, width: 1024, height: 512 },
      );
      expect(found.map((d) => d.score)).toEqual([0.9, 0.3].map(Math.fround));
      // Cell (4,4) at stride 4 is (16,16) in the detector's 512 square, ±8 → [8, 8, 24, 24], scaled
      // to 1024×512.
      expect(found[0]!.box).toEqual([16, 8, 48, 24]);
    },
  );
  it('measures box overlap', () => {
    expect(boxIou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(1 / 3);
    expect(boxOf({ data: Float32Array.of(0, 0.9, 0, 0.7), width: 2, height: 2 })).toEqual([
      1, 0, 2, 2,
    ]);
    expect(boxOf({ data: new Float32Array(4), width: 2, height: 2 })).toBeNull();
  });
});

describe('SAM I/O', () => {
  it(
    'puts a box as corner labels 2 and 3 in the 1024 space, and ' +
      'points without a box with a padding point',
    () => {
      const box = samDecoderFeeds({ box: [0, 0, 512, 256] }, 2048, 1024);
      expect([...box.point_coords!.data]).toEqual([0, 0, 256, 128]);
      expect([...box.point_labels!.data]).toEqual([2, 3]);
      const pts = samDecoderFeeds({ points: [{ x: 100, y: 50, include: false }] }, 1024, 512);
      expect([...pts.point_labels!.data]).toEqual([0, -1]);
      expect([...pts.orig_im_size!.data]).toEqual([512, 1024]);
    },
  );
  it('crops the low-resolution logits to the picture before scaling them back', () => {
    const low = new Float32Array(256 * 256).fill(-10);
    for (let y = 0; y < 128; y++) for (let x = 0; x < 128; x++) low[y * 256 + x] = 10;
    // A 2:1 picture fills the top 128 rows of the 256 grid: the object is its left half.
    const m = samMask({ data: low, dims: [1, 1, 256, 256] }, 200, 100);
    expect(m.data[50 * 200 + 20]).toBeGreaterThan(0.99);
    expect(m.data[50 * 200 + 180]).toBeLessThan(0.01);
  });
});
