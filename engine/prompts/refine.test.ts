import { describe, expect, it } from 'vitest';
import { API_MODEL_ROWS } from '../api-models';
import { cleanEdges, fuseInto, REFINE_TIERS, takeWholeRegions } from './refine';

describe('fuseInto', () => {
  it('adds as the per-pixel maximum and subtracts as mask × (1 − concept)', () => {
    const mask = Uint8Array.of(0, 100, 255, 255, 200);
    fuseInto(mask, Uint8Array.of(255, 50, 0, 128, 255), 'add');
    expect([...mask]).toEqual([255, 100, 255, 255, 255]);
    const sub = Uint8Array.of(0, 100, 255, 255, 200);
    fuseInto(sub, Uint8Array.of(255, 50, 0, 128, 255), 'subtract');
    expect([...sub]).toEqual([0, 80, 255, 127, 0]);
  });
});

describe('takeWholeRegions', () => {
  // Two regions on a 6×2 mask: a big one (left, 6 px) and a small one (right, 2 px).
  const mask = () => Uint8Array.from([255, 255, 255, 0, 255, 0, 255, 255, 255, 0, 255, 0]);
  it('takes a region the concept covers for at least the share, and leaves the others', () => {
    const concept = Uint8Array.from([255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 0, 0]);
    takeWholeRegions(mask(), concept, 6, 0.5);
    expect([...concept]).toEqual([255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0]);
  });
  it('keeps all but the concept in a region it covers only a little of', () => {
    const concept = Uint8Array.from([255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    takeWholeRegions(mask(), concept, 6, 0.5);
    expect([...concept]).toEqual([255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('cleanEdges', () => {
  it('keeps a mask that follows the picture, at full resolution', () => {
    const W = 64;
    const H = 32;
    const luma = {
      data: new Uint8Array(W * H).map((_, i) => (i % W < 32 ? 20 : 230)),
      width: W,
      height: H,
    };
    const mask = new Uint8Array(W * H).map((_, i) => (i % W < 32 ? 0 : 255));
    const out = cleanEdges(mask, luma, 128);
    expect(out).toHaveLength(W * H);
    expect(out[5 * W + 2]).toBeLessThan(20);
    expect(out[5 * W + 60]).toBeGreaterThan(235);
  });
});

describe('REFINE_TIERS', () => {
  it('has an engine configuration for every model that allows text prompts', () => {
    for (const m of API_MODEL_ROWS.filter((r) => r.textPrompts))
      expect(REFINE_TIERS[m.tier], m.id).toBeDefined();
  });
});
