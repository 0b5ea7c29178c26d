import { describe, expect, it } from 'vitest';
import { API_MODEL_ROWS } from '../api-models';
import { GPU_TIERS, TIERS } from '../tiers';
import { tierFor } from './registry';

describe('tierFor', () => {
  it('gives every API model its tier on the CPU', () => {
    for (const row of API_MODEL_ROWS) expect(tierFor(row.id).tier).toBe(TIERS[row.tier]);
  });

  it("gives a GPU the tier's GPU configuration where it has one, else the same tier", () => {
    expect(tierFor('service-human', undefined, 'gpu')).toMatchObject({
      tier: { model: 'rvm', subject: { kind: 'people' } },
      manifest: { id: 'rvm' },
    });
    for (const row of API_MODEL_ROWS)
      expect(tierFor(row.id, undefined, 'gpu').tier).toBe(GPU_TIERS[row.tier] ?? TIERS[row.tier]);
  });
});
