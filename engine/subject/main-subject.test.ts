import { describe, expect, it } from 'vitest';
import type { FloatMap } from '../matte/image';
import { keepMainSubject } from './main-subject';

const map = (w: number, h: number, f: (x: number, y: number) => number): FloatMap => {
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = f(x, y);
  return { data, width: w, height: h };
};

describe('main subject', () => {
  // A large region, a small unsure one (a stray detection) and a small sure one (a hand the
  // working resolution cut off from the arm, a ball).
  const p = map(40, 20, (x, y) => {
    if (x >= 5 && x < 20 && y >= 2 && y < 18) return 0.9;
    if (x >= 35 && x < 37 && y < 2) return 0.6;
    if (x >= 30 && x < 32 && y >= 15 && y < 17) return 0.95;
    return 0;
  });

  it('drops a small region the model is unsure of and keeps the large one', () => {
    const out = keepMainSubject(p, 0.15);
    expect(out.data[10 * 40 + 10]).toBeCloseTo(0.9);
    expect(out.data[0 * 40 + 35]).toBe(0);
  });

  it('keeps a small region the model is sure of', () => {
    expect(keepMainSubject(p, 0.15).data[15 * 40 + 30]).toBeCloseTo(0.95);
  });
});
