import { describe, expect, it } from 'vitest';
import {
  buildColourModel,
  checkOwnColours,
  colourPosterior,
  combineOdds,
  ownColoursOf,
  quantiseColours,
} from './colour-model';
import { stillFlow, type FlowField } from './flow';

const [W, H] = [64, 32];

/** R, G, B planes: `colourAt(x, y)` gives each pixel's colour. */
function planes(
  colourAt: (x: number, y: number) => [number, number, number],
  w = W,
  h = H,
): Float32Array[] {
  const out = [new Float32Array(w * h), new Float32Array(w * h), new Float32Array(w * h)];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) colourAt(x, y).forEach((v, c) => (out[c]![y * w + x] = v));
  return out;
}

const still = stillFlow({ width: 16, height: 8 });
const RED: [number, number, number] = [200, 40, 40];
const GREEN: [number, number, number] = [40, 160, 40];
const BLUE: [number, number, number] = [30, 30, 220];

describe('colour model', () => {
  it('quantises each channel to 16 levels, clamping what resampling overshoots', () => {
    const q = quantiseColours([
      Float32Array.of(0, 255, -3, 300, 128),
      Float32Array.of(0, 255, 0, 0, 128),
      Float32Array.of(0, 255, 0, 0, 128),
    ]);
    expect(Array.from(q)).toEqual([0, 4095, 0, 15 * 256, 8 * 256 + 8 * 16 + 8]);
  });

  it(
    'says subject for the colours a key had as subject nearby, ' +
      'background for its background ones, and nothing for unseen ' +
      'ones',
    () => {
      // Key: a red subject on the left half, green background on the right.
      const key = quantiseColours(planes((x) => (x < 32 ? RED : GREEN)));
      const prob = {
        data: Float32Array.from({ length: W * H }, (_, i) => (i % W < 32 ? 1 : 0)),
        width: W,
        height: H,
      };
      const model = buildColourModel(key, prob);
      // Frame: green has spread left of the edge, a blue thing sits far left.
      const frame = quantiseColours(planes((x) => (x < 4 ? BLUE : x < 28 ? RED : GREEN)));
      const p = colourPosterior(model, frame, W, H, still);
      expect(p[16 * W + 10]).toBeGreaterThan(0.99); // red, where the key had red subject
      // green next to the edge: background there in the key
      expect(p[16 * W + 30]).toBeLessThan(0.02);
      expect(p[16 * W + 1]).toBe(0.5); // blue: the key never showed it
    },
  );

  it(
    'takes a colour the key showed as subject a few cells away as ' +
      'subject, but not one it showed as background there',
    () => {
      // Cells are 4 px wide. Key: green background, a blue ball (subject) in cell 5, a yellow
      // post (background) in cell 9.
      const YELLOW: [number, number, number] = [220, 220, 40];
      const key = quantiseColours(
        planes((x) => (x >= 20 && x < 24 ? BLUE : x >= 36 && x < 40 ? YELLOW : GREEN)),
      );
      const prob = {
        data: Float32Array.from({ length: W * H }, (_, i) => (i % W >= 20 && i % W < 24 ? 1 : 0)),
        width: W,
        height: H,
      };
      const model = buildColourModel(key, prob);
      // Frame: the ball has moved to cell 7, faster than the flow (still) followed; yellow shows
      // in cell 7 too, and blue again far off in cell 13.
      const frame = quantiseColours(
        planes((x, y) =>
          x >= 28 && x < 32 ? (y < 16 ? BLUE : YELLOW) : x >= 52 && x < 56 ? BLUE : GREEN,
        ),
      );
      const p = colourPosterior(model, frame, W, H, still);
      expect(p[8 * W + 29]).toBeGreaterThan(0.9); // the ball, two cells from where the key had it
      expect(p[24 * W + 29]).toBe(0.5); // yellow, background two cells away: no opinion, as before
      expect(p[8 * W + 53]).toBe(0.5); // blue, six cells from the ball: too far to tell
    },
  );

  it('reads the statistics of the key cell each pixel came from along the flow', () => {
    // Key: red is subject on the left; on the right, red is background (a red wall).
    const key = quantiseColours(planes(() => RED));
    const prob = {
      data: Float32Array.from({ length: W * H }, (_, i) => (i % W < 16 ? 1 : 0)),
      width: W,
      height: H,
    };
    const model = buildColourModel(key, prob);
    const frame = quantiseColours(planes(() => RED));
    // A red pixel at x = 56 whose flow points back to x = 4 in the key: subject; without flow,
    // wall.
    const moved: FlowField = {
      ...still,
      u: new Float32Array(16 * 8).fill(-13),
      v: new Float32Array(16 * 8),
    };
    expect(colourPosterior(model, frame, W, H, moved)[16 * W + 56]).toBeGreaterThan(0.99);
    expect(colourPosterior(model, frame, W, H, still)[16 * W + 56]).toBeLessThan(0.01);
  });

  it(
    'leaves a probability as it is where the other has no opinion, ' +
      'and sharpens it where both agree',
    () => {
      const out = combineOdds(
        Float32Array.of(0.8, 0.8, 0.8, 0.3),
        Float32Array.of(0.5, 0.8, 0.2, 0.5),
      );
      expect(out[0]).toBeCloseTo(0.8);
      expect(out[1]!).toBeGreaterThan(0.9);
      expect(out[2]).toBeCloseTo(0.5);
      expect(out[3]).toBeCloseTo(0.3);
    },
  );

  it(
    "drops a matte's halo over background colours and keeps a thin " +
      "limb of the subject's, from the frame's own colours",
    () => {
      // Cells are 4 px wide. A red subject (x < 24) with a thin red limb (x 30–31) in a halo the
      // matte is unsure of (x 24–35 at 0.75), green background beyond: each pass reaches a cell
      // further into the halo from the background it is sure of.
      const colours = quantiseColours(
        planes((x) => (x < 24 || x === 30 || x === 31 ? RED : GREEN)),
      );
      const prob = {
        data: Float32Array.from({ length: W * H }, (_, i) =>
          i % W < 24 ? 1 : i % W < 36 ? 0.75 : 0,
        ),
        width: W,
        height: H,
      };
      const p = checkOwnColours(prob, { colours, width: W, height: H }, 3).data;
      for (const x of [25, 28, 33]) expect(p[16 * W + x]).toBeLessThan(0.1); // green in the halo
      expect(p[16 * W + 30]).toBeGreaterThan(0.9); // the red limb
      expect(p[16 * W + 10]).toBe(1);
    },
  );

  it('checks a matte wider than 256 px at 256 and carries the verdict back to its size', () => {
    // The same scene at 512 × 32: cells are 32 px of the matte, the halo (x 192–287) three of them.
    const [w, h] = [512, 32];
    const own = ownColoursOf(
      planes((x) => (x < 192 || (x >= 240 && x < 256) ? RED : GREEN), w, h),
      w,
      h,
    );
    expect([own.width, own.height]).toEqual([256, 16]);
    const prob = {
      data: Float32Array.from({ length: w * h }, (_, i) =>
        i % w < 192 ? 1 : i % w < 288 ? 0.75 : 0,
      ),
      width: w,
      height: h,
    };
    const p = checkOwnColours(prob, own, 3);
    expect([p.width, p.height]).toEqual([w, h]);
    for (const x of [200, 228, 270]) expect(p.data[16 * w + x]).toBeLessThan(0.1); // green halo
    expect(p.data[16 * w + 248]).toBeGreaterThan(0.9); // the red limb
    expect(p.data[16 * w + 20]).toBe(1);
    expect(p.data[16 * w + 400]).toBe(0);
  });
});
