import { ISNET, SELFIE } from '../../engine/models/catalog';
import type { ModelManifest } from '../../engine/models/manifest';
import { tierFor } from '../../engine/models/registry';
import { API_MODELS, isApiModel, type TierConfig } from '../../engine/tiers';
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
 * service-human as it was before Robust Video Matting (2026-11-24): MediaPipe selfie 256² on
 * every frame, guided-filter edges on a 128-px grid. Kept to measure against in the same run.
 */
export const SELFIE_HUMAN: BenchConfig = {
  name: 'service-human-selfie',
  manifest: SELFIE,
  threshold: null,
  tier: {
    model: 'selfie',
    inputSide: 256,
    keepAspect: false,
    workSide: 256,
    keyframes: { interval: 1, fuseRadius: 0, bisectBelow: 0, bisectUnexplainedAbove: 0, unexplainedScale: 0, flowSide: 160, cutThreshold: 0.15 },
    guided: { radius: 4, eps: 1e-3, gain: 2, subsample: 2 },
    mainSubjectMinFraction: 0.15,
    colourModel: false,
  },
};

/**
 * Configs by name: API model names, "baseline", "service-human-selfie", or "custom" (a tier
 * named by --base with the JSON in --custom merged over it, for tuning; a JSON array gives one
 * config per element).
 */
export function benchConfigs(names: string[], args: Map<string, string>): BenchConfig[] {
  const manifests = allManifests();
  return names.flatMap((name) => {
    if (name === 'baseline') return [BASELINE];
    if (name === SELFIE_HUMAN.name) return [SELFIE_HUMAN];
    if (name === 'custom') {
      const base = args.get('base') ?? 'service-original';
      if (!isApiModel(base)) throw new Error(`--base must be one of ${API_MODELS.join(', ')}`);
      const custom = JSON.parse(args.get('custom') ?? '{}') as Partial<TierConfig> | Partial<TierConfig>[];
      return (Array.isArray(custom) ? custom : [custom]).map((c, i, all) => {
        const tier = { ...tierFor(base, manifests).tier, ...c };
        const manifest = manifests.find((m) => m.id === tier.model);
        if (!manifest) throw new Error(`unknown model ${tier.model}`);
        return { name: all.length > 1 ? `custom${i + 1}(${base})` : `custom(${base})`, tier, manifest, threshold: null };
      });
    }
    if (!isApiModel(name)) throw new Error(`unknown config ${name}; use ${API_MODELS.join(', ')}, baseline, ${SELFIE_HUMAN.name} or custom`);
    const { tier, manifest } = tierFor(name, manifests);
    return [{ name, tier, manifest, threshold: null }];
  });
}
