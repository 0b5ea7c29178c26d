import { ISNET } from '../../engine/models/catalog';
import type { ModelManifest } from '../../engine/models/manifest';
import { tierFor, withManifest } from '../../engine/models/registry';
import { API_MODELS, DEFAULT_MODEL, isApiModel } from '../../engine/api-models';
import { keysOnEveryFrame, PEOPLE_TIERS, type TierConfig } from '../../engine/tiers';
import { allManifests } from '../../lib/models/manifests';

export interface BenchConfig {
  name: string;
  tier: TierConfig;
  manifest: ModelManifest;
  threshold: number | null;
  /**
   * `<API model>@before`: the tier as engine/tiers.ts gives it, run the way jobs ran before the
   * speed work of issue 47: the default output rendered only once the mask is whole (bench:jobs).
   */
  before?: boolean;
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
    keyframes: keysOnEveryFrame(256, 1),
    guided: null,
    mainSubjectMinFraction: null,
    colourModel: false,
    subject: null,
  },
};

/**
 * Configs by name: API model names, "<API model>@gpu" (what a GPU worker runs for it,
 * engine/tiers.ts GPU_TIERS), "<API model>@before" (`before`), "<API model>:no-subject" (the tier
 * as it was before the subject stage), "<API model>:per-key" (its subject chosen key by key, as
 * before the shot's tracks), "<API model>:sam-votes" (SAM votes with ISNet inside the subject's box
 * on every key, engine/subject/sam-vote.ts; measured and not adopted), "baseline", "people-selfie",
 * "people-rvm", or "custom" (a tier named by --base with the JSON in --custom merged over it, for
 * tuning; a JSON array gives one config per element).
 */
export function benchConfigs(names: string[], args: Map<string, string>): BenchConfig[] {
  const manifests = allManifests();
  // The people configurations (engine/tiers.ts), whichever of them service-human runs.
  const PEOPLE: BenchConfig[] = Object.entries(PEOPLE_TIERS).map(([name, tier]) => ({
    name: `people-${name}`,
    ...withManifest(tier, manifests),
    threshold: null,
  }));
  return names.flatMap((name) => {
    if (name === 'baseline') return [BASELINE];
    const people = PEOPLE.find((p) => p.name === name);
    if (people) return [people];
    if (name === 'custom') {
      const base = args.get('base') ?? DEFAULT_MODEL;
      if (!isApiModel(base)) throw new Error(`--base must be one of ${API_MODELS.join(', ')}`);
      const custom = JSON.parse(args.get('custom') ?? '{}') as
        Partial<TierConfig> | Partial<TierConfig>[];
      return (Array.isArray(custom) ? custom : [custom]).map((c, i, all) => {
        const tier = { ...tierFor(base, manifests).tier, ...c };
        const manifest = manifests.find((m) => m.id === tier.model);
        if (!manifest) throw new Error(`unknown model ${tier.model}`);
        return {
          name: all.length > 1 ? `custom${i + 1}(${base})` : `custom(${base})`,
          tier,
          manifest,
          threshold: null,
        };
      });
    }
    const before = name.endsWith('@before') ? name.slice(0, -'@before'.length) : null;
    if (before && isApiModel(before))
      return [{ name, ...tierFor(before, manifests), threshold: null, before: true }];
    const onGpu = name.endsWith('@gpu') ? name.slice(0, -'@gpu'.length) : null;
    if (onGpu && isApiModel(onGpu))
      return [{ name, ...tierFor(onGpu, manifests, 'gpu'), threshold: null }];
    const [api, variant] = name.split(':');
    if (variant === 'no-subject' && api && isApiModel(api)) {
      const { tier, manifest } = tierFor(api, manifests);
      return [{ name, tier: { ...tier, subject: null }, manifest, threshold: null }];
    }
    if ((variant === 'per-key' || variant === 'sam-votes') && api && isApiModel(api)) {
      const { tier, manifest } = tierFor(api, manifests);
      if (tier.subject?.kind !== 'general')
        throw new Error(`${api} has no general subject stage for :${variant}`);
      const stage = variant === 'per-key' ? { choice: 'key' as const } : { samVotes: true };
      return [
        {
          name,
          tier: { ...tier, subject: { ...tier.subject, ...stage } },
          manifest,
          threshold: null,
        },
      ];
    }
    if (!isApiModel(name))
      throw new Error(
        `unknown config ${name}; use ${API_MODELS.join(', ')} ` +
          '(optionally with @gpu, @before, :no-subject, :per-key or ' +
          `:sam-votes), baseline, ${PEOPLE.map((p) => p.name).join(', ')} ` +
          'or custom',
      );
    const { tier, manifest } = tierFor(name, manifests);
    return [{ name, tier, manifest, threshold: null }];
  });
}
