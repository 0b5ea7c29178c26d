import { describe, expect, it } from 'vitest';
import { applyToFrame, guidedCoefficients } from './guided-filter';
import { grayOf, lumaOf, resampleRgb, resizeMap, type FloatMap } from './image';
import { CutDetector } from './cuts';
import { denseFlow, stillFlow, warpBack } from './flow';
import { fuseKeyMattes, unexplainedSubject } from './fusion';

/** A frame whose left `edge` columns are white, the rest black. */
function stepFrame(w: number, h: number, edge: number) {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) data.fill(x < edge ? 255 : 0, (y * w + x) * 4, (y * w + x) * 4 + 3);
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
    expect(
      resizeMap(
        map(4, 4, () => 0.5),
        9,
        7,
      ).data.every((v) => Math.abs(v - 0.5) < 1e-6),
    ).toBe(true);
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
    applyToFrame(guidedCoefficients(p, luma, 2, 1e-4), p, grayOf(frame), null, alpha);
    const row = Array.from(alpha.subarray(20 * 160, 21 * 160));
    const plain = new Uint8Array(160 * 40);
    applyToFrame(null, p, grayOf(frame), null, plain);
    // The guided matte drops sharply exactly at the frame's edge; plain upsampling does not.
    const jump = (r: ArrayLike<number>) => r[82]! - r[83]!;
    expect(jump(row)).toBeGreaterThan(100);
    expect(jump(plain.subarray(20 * 160, 21 * 160))).toBeLessThan(20);
  });

  it('narrows the soft edge band with gain, leaving the 0.5 boundary in place', () => {
    const frame = { data: new Uint8ClampedArray(64 * 8 * 4).fill(128), width: 64, height: 8 };
    const p = map(64, 8, (x) => x / 63);
    const luma = lumaOf(resampleRgb(frame, 64, 8), 64, 8);
    const soft = (gain: number) => {
      const alpha = new Uint8Array(64 * 8);
      applyToFrame(guidedCoefficients(p, luma, 2, 1e-3, gain), p, grayOf(frame), null, alpha);
      return Array.from(alpha.subarray(4 * 64, 5 * 64));
    };
    const band = (row: number[]) => row.filter((v) => v > 0 && v < 255).length;
    const [plain, steep] = [soft(1), soft(2)];
    expect(band(steep)).toBeLessThan(band(plain) * 0.6);
    const cross = (row: number[]) => row.findIndex((v) => v >= 128);
    expect(Math.abs(cross(steep) - cross(plain))).toBeLessThanOrEqual(1);
  });

  it('thresholds to hard alpha when asked', () => {
    const frame = stepFrame(32, 8, 16);
    const p = map(32, 8, (x) => x / 31);
    const alpha = new Uint8Array(32 * 8);
    applyToFrame(null, p, grayOf(frame), 0.5, alpha);
    expect(new Set(alpha)).toEqual(new Set([0, 255]));
  });
});

/** Textured background with a bright 30x30 square at (ox, oy): something flow can lock onto. */
const scene = (w: number, h: number, ox: number, oy: number) =>
  map(w, h, (x, y) =>
    x >= ox && x < ox + 30 && y >= oy && y < oy + 30
      ? 0.9
      : 0.2 + 0.1 * Math.sin(x * 0.7) * Math.cos(y * 0.5),
  );
const square = (w: number, h: number, ox: number, oy: number) =>
  map(w, h, (x, y) => (x >= ox && x < ox + 30 && y >= oy && y < oy + 30 ? 1 : 0));

describe('optical flow', () => {
  it('finds a moved square and pulls its matte onto the new position', () => {
    const [w, h] = [160, 96];
    const flow = denseFlow(scene(w, h, 60, 30), scene(w, h, 49, 36));
    // Inside the square the reference pixel (70, 45) is at (59, 51) in the target.
    expect(Math.abs(flow.u[45 * w + 70]! + 11)).toBeLessThan(1);
    expect(Math.abs(flow.v[45 * w + 70]! - 6)).toBeLessThan(1);
    const moved = warpBack(square(w, h, 49, 36), flow);
    expect(moved.data[45 * w + 75]).toBeGreaterThan(0.8);
    expect(moved.data[45 * w + 52]).toBeLessThan(0.2);
  });

  it(
    'follows a head that crosses a fifth of the frame and keeps the ' +
      'still wall beside it still',
    () => {
      // A talking head swinging in front of a wood-grain wall (the d12 clip at the flow's 128 px):
      // eyes, mouth and shading on the head, faint vertical grain on the wall.
      const [w, h, side] = [128, 128, 44];
      const blob = (dx: number, dy: number, cx: number, cy: number, s: number) =>
        Math.exp(-((dx - cx) ** 2 + (dy - cy) ** 2) / s);
      const frame = (ox: number) =>
        map(w, h, (x, y) => {
          const [dx, dy] = [x - ox, y - 30];
          if (dx < 0 || dx >= side || dy < 0 || dy >= side)
            return (
              0.6 + 0.04 * Math.sin(x * 1.3 + 2 * Math.sin(x * 0.21) + 0.2 * Math.sin(y * 0.15))
            );
          return (
            0.3 +
            0.4 * blob(dx, dy, 12, 15, 30) +
            0.3 * blob(dx, dy, 31, 13, 20) -
            0.2 * blob(dx, dy, 22, 32, 60) +
            (0.2 * dx) / side
          );
        });
      const flow = denseFlow(frame(60), frame(32));
      for (const [x, y] of [
        [62, 32],
        [70, 40],
        [80, 50],
        [100, 70],
      ] as const) {
        expect(Math.abs(flow.u[y * w + x]! + 28)).toBeLessThan(1.5);
        expect(Math.abs(flow.v[y * w + x]!)).toBeLessThan(1.5);
      }
      // The wall away from both positions of the head stays put (a patch here and there may slip
      // along the grain by a few pixels, which carries no matte anywhere wrong).
      let drift = 0;
      for (let y = 0; y < h; y++)
        for (let x = 110; x < w; x++) drift += Math.hypot(flow.u[y * w + x]!, flow.v[y * w + x]!);
      expect(drift / (h * (w - 110))).toBeLessThan(0.5);
      const head = warpBack(square(w, h, 32, 30), flow);
      expect(head.data[32 * w + 62]).toBeGreaterThan(0.8);
      expect(head.data[50 * w + 40]).toBeLessThan(0.2);
    },
  );
});

describe('keyframe fusion', () => {
  it('fills a frame between two keys from both, following the motion', () => {
    const [w, h] = [160, 96];
    const key = (index: number, ox: number) => ({
      index,
      prob: square(w, h, ox, 30),
      small: scene(w, h, ox, 30),
    });
    const fused = fuseKeyMattes(scene(w, h, 50, 30), 2, [key(0, 40), key(4, 60)], {
      interval: 4,
      unexplainedScale: 0,
    });
    expect(fused.data[45 * w + 60]).toBeGreaterThan(0.8);
    expect(fused.data[45 * w + 45]).toBeLessThan(0.2);
    expect(fused.data[45 * w + 85]).toBeLessThan(0.2);
  });

  it('lets a sure key overrule an unsure one', () => {
    const [w, h] = [64, 48];
    const still = scene(w, h, 10, 10);
    const sure = { index: 0, prob: map(w, h, () => 0.98), small: still };
    const unsure = { index: 1, prob: map(w, h, () => 0.45), small: still };
    expect(
      fuseKeyMattes(still, 1, [sure, unsure], { interval: 1, unexplainedScale: 0 }).data[
        20 * w + 20
      ],
    ).toBeGreaterThan(0.5);
  });

  it(
    'distrusts a key whose subject the frame does not show, even ' + 'where its picture matches',
    () => {
      // A grey block with a white mark on dark ground. Key B is the frame itself; key A took a
      // white mark elsewhere for the subject and the block for background. Where the block is
      // plain grey, A's picture matches the frame, so only the whole of A's carried subject
      // landing on dark ground tells that A does not describe this frame.
      const [w, h] = [64, 32];
      const picture = (mark: number) =>
        map(w, h, (x) => (x >= mark && x < mark + 8 ? 1 : x >= 20 && x < 44 ? 0.5 : 0.1));
      const frame = picture(30);
      const a = { index: 0, prob: map(w, h, (x) => (x >= 4 && x < 12 ? 1 : 0)), small: picture(4) };
      const b = { index: 4, prob: map(w, h, (x) => (x >= 20 && x < 44 ? 1 : 0)), small: frame };
      const still = () => stillFlow(frame);
      const fuse = (unexplainedScale: number) =>
        fuseKeyMattes(frame, 2, [a, b], { interval: 4, unexplainedScale }, still).data[
          16 * w + 24
        ]!;
      expect(unexplainedSubject(frame, a, still())).toBe(1);
      expect(unexplainedSubject(frame, b, still())).toBe(0);
      expect(fuse(0)).toBeLessThan(0.6);
      expect(fuse(0.1)).toBeGreaterThan(0.95);
    },
  );

  it('finds a region the key does not explain inside a subject it mostly does', () => {
    // The key shows a head over a torso; on the frame the head has gone (dark ground there),
    // the torso is where it was. Most of the key's subject is explained; the head's cells are not.
    const [w, h] = [64, 64];
    const head = (x: number, y: number) => x >= 8 && x < 24 && y >= 8 && y < 24;
    const torso = (_x: number, y: number) => y >= 32;
    const key = {
      index: 0,
      prob: map(w, h, (x, y) => (head(x, y) || torso(x, y) ? 1 : 0)),
      small: map(w, h, (x, y) => (head(x, y) || torso(x, y) ? 0.7 : 0.1)),
    };
    const frame = map(w, h, (x, y) => (torso(x, y) ? 0.7 : 0.1));
    expect(unexplainedSubject(frame, key, stillFlow(frame))).toBeLessThan(0.15);
    expect(unexplainedSubject(frame, key, stillFlow(frame), 4)).toBeGreaterThan(0.9);
  });
});

describe('cut detection', () => {
  it('marks a new shot but not motion within one', () => {
    const c = new CutDetector(0.15);
    expect([
      c.isCut(scene(160, 96, 40, 30)),
      c.isCut(scene(160, 96, 44, 30)),
      c.isCut(map(160, 96, () => 0.9)),
    ]).toEqual([false, false, true]);
  });
});
