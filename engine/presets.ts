import type { TierConfig } from './tiers';

/** A side rounded to 16 px, never below `least`. */
const side = (s: number, least = 128) => Math.max(least, Math.round(s / 16) * 16);

/**
 * Quicker and softer: matting and optical flow at three quarters of the tier's sizes, and on
 * keyframe tiers the keys twice as far apart with no extra keys where motion is fast.
 */
function fast(t: TierConfig): TierConfig {
  const k = t.keyframes;
  const keyframes =
    k.interval > 1
      ? { ...k, interval: k.interval * 2, bisectBelow: 0, bisectUnexplainedAbove: 0 }
      : k;
  return {
    ...t,
    workSide: side(t.workSide * 0.75),
    keyframes: { ...keyframes, flowSide: side(k.flowSide * 0.75, 64) },
  };
}

/**
 * Finer hair and edges: matting at 1.5× the tier's working side (at most 1024 px), edges solved on
 * the full grid.
 */
function fineEdges(t: TierConfig): TierConfig {
  return {
    ...t,
    workSide: Math.min(1024, side(t.workSide * 1.5)),
    guided: t.guided && { ...t.guided, subsample: 1 },
  };
}

/**
 * Engine presets (`background.options.preset`). Each adjusts the chosen model's engine
 * configuration (engine/tiers.ts) and never the model: the price is the model's (credits per
 * second), and no preset runs the model on more frames than the model's own configuration does.
 */
export const ENGINE_PRESETS = {
  balanced: { summary: "The model's tuned settings (the default).", adjust: (t: TierConfig) => t },
  fast: {
    summary:
      'Quicker, softer edges: matting at 3/4 of the working size; ' +
      'keyframe models place keys twice as far apart.',
    adjust: fast,
  },
  'fine-edges': {
    summary:
      'Finer hair and edges: matting at 1.5x the working size (up to ' +
      '1024 px), edges solved on the full grid. Slower.',
    adjust: fineEdges,
  },
} as const satisfies Record<string, { summary: string; adjust: (t: TierConfig) => TierConfig }>;

export type EnginePreset = keyof typeof ENGINE_PRESETS;
export const ENGINE_PRESET_NAMES = Object.keys(ENGINE_PRESETS) as [EnginePreset, ...EnginePreset[]];

/** The tier as a preset adjusts it; no preset is `balanced`. */
export function withPreset(tier: TierConfig, preset: EnginePreset | null | undefined): TierConfig {
  return ENGINE_PRESETS[preset ?? 'balanced'].adjust(tier);
}
