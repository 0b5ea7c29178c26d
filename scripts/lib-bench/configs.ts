import { ISNET } from '../../engine/models/catalog';
import type { ModelManifest } from '../../engine/models/manifest';
import { tierFor } from '../../engine/models/registry';
import { API_MODELS, DEFAULT_MODEL, isApiModel } from '../../engine/api-models';
import type { TierConfig } from '../../engine/tiers';
import { allManifests } from '../../lib/models/manifests';

export interface BenchConfig {
  name: string;
  tier: TierConfig;
  manifest: ModelManifest;
  threshold: number | null;
}

/** The naive baseline: ISNet at 1024² on every frame, thresholded, no refinement. */
export const BASELINE: BenchConfig = {
  name: 'baseline-isnet-1024',
  manifest: ISNET,
  threshold: 0.5,
  tier: {
    model: 'isnet',
    inputSide: 1024,
    keepAspect: false,
    workSide: 1024,
    keyframes: { interval: 1, fuseRadius: 0, bisectBelow: 0, bisectUnexplainedAbove: 0, unexplainedScale: 0, flowSide: 256, cutThreshold: 1 },
    guided: null,
    mainSubjectMinFraction: null,
    colourModel: false,
  },
};

/**
 * Configs by name: API model names, "baseline", or "custom" (a tier named by --base with the
 * JSON in --custom merged over it, for tuning).
 */
export function benchConfigs(names: string[], args: Map<string, string>): BenchConfig[] {
  const manifests = allManifests();
  return names.map((name) => {
    if (name === 'baseline') return BASELINE;
    if (name === 'custom') {
      const base = args.get('base') ?? DEFAULT_MODEL;
      if (!isApiModel(base)) throw new Error(`--base must be one of ${API_MODELS.join(', ')}`);
      const tier = { ...tierFor(base, manifests).tier, ...(JSON.parse(args.get('custom') ?? '{}') as Partial<TierConfig>) };
      const manifest = manifests.find((m) => m.id === tier.model);
      if (!manifest) throw new Error(`unknown model ${tier.model}`);
      return { name: `custom(${base})`, tier, manifest, threshold: null };
    }
    if (!isApiModel(name)) throw new Error(`unknown config ${name}; use ${API_MODELS.join(', ')}, baseline or custom`);
    const { tier, manifest } = tierFor(name, manifests);
    return { name, tier, manifest, threshold: null };
  });
}
