import { describe, expect, it } from 'vitest';
import { applyToFrame, guidedCoefficients } from './guided-filter';
import { lumaOf, resampleRgb, resizeMap, type FloatMap } from './image';
import { keepMainSubject } from './main-subject';
import { propagate } from './motion';
import { KeyframeSampler } from './sampler';
import { TemporalStabilizer } from './temporal';

/** A frame whose left `edge` columns are white, the rest black. */
function stepFrame(w: number, h: number, edge: number) {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.fill(x < edge ? 255 : 0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  return { data, width: w, height: h };
}

const map = (w: number, h: number, f: (x: number, y: number) => number): FloatMap => {
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = f(x, y);
  return { data, width: w, height: h };
};

describe('resampling', () => {
  it('area-averages when shrinking and keeps flat colour', () => {
    const f = stepFrame(64, 32, 32);
    const [r] = resampleRgb(f, 16, 8);
    expect(r![0]).toBeCloseTo(255);
    expect(r![15]).toBeCloseTo(0);
    expect(resizeMap(map(4, 4, () => 0.5), 9, 7).data.every((v) => Math.abs(v - 0.5) < 1e-6)).toBe(true);
  });
});

describe('guided upsampling', () => {
  it('snaps a blurry low-resolution matte to the frame edge at full resolution', () => {
    const frame = stepFrame(160, 40, 83);
    const [lw, lh] = [40, 10];
    const luma = lumaOf(resampleRgb(frame, lw, lh), lw, lh);
    // A soft ramp across the edge, as a low-resolution model gives.
    const p = map(lw, lh, (x) => Math.min(1, Math.max(0, (24 - x) / 6)));
    const alpha = new Uint8Array(160 * 40);
    applyToFrame(guidedCoefficients(p, luma, 2, 1e-4), p, frame, null, alpha);
    const row = Array.from(alpha.subarray(20 * 160, 21 * 160));
    const plain = new Uint8Array(160 * 40);
    applyToFrame(null, p, frame, null, plain);
    // The guided matte drops sharply exactly at the frame's edge; plain upsampling does not.
    const jump = (r: ArrayLike<number>) => r[82]! - r[83]!;
    expect(jump(row)).toBeGreaterThan(100);
    expect(jump(plain.subarray(20 * 160, 21 * 160))).toBeLessThan(20);
  });

  it('thresholds to hard alpha when asked', () => {
    const frame = stepFrame(32, 8, 16);
    const p = map(32, 8, (x) => x / 31);
    const alpha = new Uint8Array(32 * 8);
    applyToFrame(null, p, frame, 0.5, alpha);
    expect(new Set(alpha)).toEqual(new Set([0, 255]));
  });
});

describe('main subject', () => {
  it('drops a small stray region and keeps the large one', () => {
    const p = map(40, 20, (x, y) => ((x >= 5 && x < 20 && y >= 2 && y < 18) || (x >= 35 && x < 37 && y < 2) ? 0.9 : 0));
    const out = keepMainSubject(p, 0.15);
    expect(out.data[10 * 40 + 10]).toBeCloseTo(0.9);
    expect(out.data[0 * 40 + 35]).toBe(0);
  });
});

describe('temporal stabiliser', () => {
  it('averages small disagreements and lets real changes through at once', () => {
    const t = new TemporalStabilizer({ strength: 0.8, tolerance: 0.5 });
    const guide = map(16, 16, () => 0.5);
    t.apply(map(16, 16, () => 1), guide);
    const out = t.apply(map(16, 16, (x) => (x < 8 ? 0.9 : 0)), guide);
    expect(out.data[0]).toBeCloseTo(0.8 * 0.8 * 1 + (1 - 0.8 * 0.8) * 0.9);
    expect(out.data[15]).toBe(0);
  });
});

describe('keyframe sampling and propagation', () => {
  it('reuses the matte on unchanged frames up to the interval, re-infers on a change', () => {
    const s = new KeyframeSampler({ maxInterval: 3, changeThreshold: 0.05 });
    const a = map(64, 36, () => 0.2);
    const b = map(64, 36, () => 0.6);
    expect([s.needsInference(a), s.needsInference(a), s.needsInference(a), s.needsInference(a), s.needsInference(b)]).toEqual([
      true,
      false,
      false,
      true,
      true,
    ]);
  });

  it('moves the matte with the picture', () => {
    const w = 160;
    const h = 90;
    const square = (ox: number) => map(w, h, (x, y) => (x >= ox && x < ox + 30 && y >= 30 && y < 60 ? 1 : 0));
    const lumaWith = (ox: number) => map(w, h, (x, y) => (x >= ox && x < ox + 30 && y >= 30 && y < 60 ? 0.9 : 0.1 + 0.02 * ((x * 7 + y * 3) % 5)));
    const moved = propagate(square(40), lumaWith(40), lumaWith(44));
    expect(moved.data[45 * w + 72]).toBeGreaterThan(0.8);
    expect(moved.data[45 * w + 41]).toBeLessThan(0.2);
  });
});
