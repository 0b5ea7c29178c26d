import { describe, expect, it } from 'vitest';
import { ENGINE_PRESET_NAMES, withPreset } from './presets';
import { GPU_TIERS, TIERS } from './tiers';

const tiers = [
  ...Object.entries(TIERS),
  ...Object.entries(GPU_TIERS).map(([n, t]) => [`gpu ${n}`, t] as const),
];

describe('engine presets', () => {
  it('balanced (and no preset) keeps the tier as it is', () => {
    for (const [, tier] of tiers) {
      expect(withPreset(tier, 'balanced')).toEqual(tier);
      expect(withPreset(tier, null)).toEqual(tier);
    }
  });

  it('never changes the model or runs it on more frames, so the price stays the model’s', () => {
    for (const [name, tier] of tiers) {
      for (const preset of ENGINE_PRESET_NAMES) {
        const t = withPreset(tier, preset);
        expect([name, t.model, t.inputSide, t.subject]).toEqual([
          name,
          tier.model,
          tier.inputSide,
          tier.subject,
        ]);
        expect(t.keyframes.interval).toBeGreaterThanOrEqual(tier.keyframes.interval);
        expect(t.keyframes.bisectBelow).toBeLessThanOrEqual(tier.keyframes.bisectBelow);
      }
    }
  });

  it(
    'fast mattes smaller and spaces keys further; fine-edges mattes ' + 'larger on the full grid',
    () => {
      expect(withPreset(TIERS.light, 'fast')).toMatchObject({
        workSide: 240,
        keyframes: { interval: 64, bisectBelow: 0, flowSide: 96 },
      });
      expect(withPreset(TIERS.pro, 'fast')).toMatchObject({
        workSide: 576,
        keyframes: { interval: 1 },
      });
      expect(withPreset(TIERS.human, 'fine-edges')).toMatchObject({
        workSide: 576,
        guided: { subsample: 1 },
      });
      expect(withPreset(TIERS.pro, 'fine-edges').workSide).toBe(1024);
    },
  );
});
