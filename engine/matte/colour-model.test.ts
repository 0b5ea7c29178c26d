import { describe, expect, it } from 'vitest';
import { buildColourModel, colourPosterior, combineOdds, quantiseColours } from './colour-model';
import { stillFlow, type FlowField } from './flow';

const [W, H] = [64, 32];

/** R, G, B planes: `colourAt(x, y)` gives each pixel's colour. */
function planes(colourAt: (x: number, y: number) => [number, number, number]): Float32Array[] {
  const out = [new Float32Array(W * H), new Float32Array(W * H), new Float32Array(W * H)];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) colourAt(x, y).forEach((v, c) => (out[c]![y * W + x] = v));
  return out;
}

const still = stillFlow({ width: 16, height: 8 });
const RED: [number, number, number] = [200, 40, 40];
const GREEN: [number, number, number] = [40, 160, 40];
const BLUE: [number, number, number] = [30, 30, 220];

describe('colour model', () => {
  it('quantises each channel to 16 levels, clamping what resampling overshoots', () => {
    const q = quantiseColours([Float32Array.of(0, 255, -3, 300, 128), Float32Array.of(0, 255, 0, 0, 128), Float32Array.of(0, 255, 0, 0, 128)]);
    expect(Array.from(q)).toEqual([0, 4095, 0, 15 * 256, 8 * 256 + 8 * 16 + 8]);
  });

  it('says subject for the colours a key had as subject nearby, background for its background ones, and nothing for unseen ones', () => {
    // Key: a red subject on the left half, green background on the right.
    const key = quantiseColours(planes((x) => (x < 32 ? RED : GREEN)));
    const prob = { data: Float32Array.from({ length: W * H }, (_, i) => (i % W < 32 ? 1 : 0)), width: W, height: H };
    const model = buildColourModel(key, prob);
    // Frame: green has spread left of the edge, a blue thing sits far left.
    const frame = quantiseColours(planes((x) => (x < 4 ? BLUE : x < 28 ? RED : GREEN)));
    const p = colourPosterior(model, frame, W, H, still);
    expect(p[16 * W + 10]).toBeGreaterThan(0.99); // red, where the key had red subject
    expect(p[16 * W + 30]).toBeLessThan(0.02); // green next to the edge: background there in the key
    expect(p[16 * W + 1]).toBe(0.5); // blue: the key never showed it
  });

  it('reads the statistics of the key cell each pixel came from along the flow', () => {
    // Key: red is subject on the left; on the right, red is background (a red wall).
    const key = quantiseColours(planes(() => RED));
    const prob = { data: Float32Array.from({ length: W * H }, (_, i) => (i % W < 16 ? 1 : 0)), width: W, height: H };
    const model = buildColourModel(key, prob);
    const frame = quantiseColours(planes(() => RED));
    // A red pixel at x = 56 whose flow points back to x = 4 in the key: subject; without flow, wall.
    const moved: FlowField = { ...still, u: new Float32Array(16 * 8).fill(-13), v: new Float32Array(16 * 8) };
    expect(colourPosterior(model, frame, W, H, moved)[16 * W + 56]).toBeGreaterThan(0.99);
    expect(colourPosterior(model, frame, W, H, still)[16 * W + 56]).toBeLessThan(0.01);
  });

  it('leaves a probability as it is where the other has no opinion, and sharpens it where both agree', () => {
    const out = combineOdds(Float32Array.of(0.8, 0.8, 0.8, 0.3), Float32Array.of(0.5, 0.8, 0.2, 0.5));
    expect(out[0]).toBeCloseTo(0.8);
    expect(out[1]!).toBeGreaterThan(0.9);
    expect(out[2]).toBeCloseTo(0.5);
    expect(out[3]).toBeCloseTo(0.3);
  });
});
