import { BUILTIN_MODELS } from './catalog';
import type { ModelManifest } from './manifest';
import { apiModel, type ApiModel } from '../api-models';
import { GPU_TIERS, TIERS, type TierConfig } from '../tiers';

/** Where the models run: a GPU affords some tiers a better configuration (GPU_TIERS). */
export type TierDevice = 'cpu' | 'gpu';

/** The tier and built-in manifest behind an API model name, on a device. */
export function tierFor(
  model: ApiModel,
  manifests: readonly ModelManifest[] = BUILTIN_MODELS,
  device: TierDevice = 'cpu',
): { tier: TierConfig; manifest: ModelManifest } {
  const name = apiModel(model).tier;
  return withManifest((device === 'gpu' && GPU_TIERS[name]) || TIERS[name], manifests);
}

/** A tier with the manifest of the model it runs. */
export function withManifest(
  tier: TierConfig,
  manifests: readonly ModelManifest[] = BUILTIN_MODELS,
): { tier: TierConfig; manifest: ModelManifest } {
  const manifest = manifests.find((m) => m.id === tier.model);
  if (!manifest) throw new Error(`No manifest "${tier.model}"`);
  return { tier, manifest };
}
