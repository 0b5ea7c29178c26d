import { BUILTIN_MODELS } from './catalog';
import type { ModelManifest } from './manifest';
import { apiModel, type ApiModel } from '../api-models';
import { TIERS, type TierConfig } from '../tiers';

/** The tier and built-in manifest behind an API model name. */
export function tierFor(model: ApiModel, manifests: readonly ModelManifest[] = BUILTIN_MODELS): { tier: TierConfig; manifest: ModelManifest } {
  return withManifest(TIERS[apiModel(model).tier], manifests);
}

/** A tier with the manifest of the model it runs. */
export function withManifest(tier: TierConfig, manifests: readonly ModelManifest[] = BUILTIN_MODELS): { tier: TierConfig; manifest: ModelManifest } {
  const manifest = manifests.find((m) => m.id === tier.model);
  if (!manifest) throw new Error(`No manifest "${tier.model}"`);
  return { tier, manifest };
}
