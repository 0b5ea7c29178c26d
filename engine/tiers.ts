import type { SamplingOptions } from './matte/sampler';
import type { TemporalOptions } from './matte/temporal';

export const API_MODELS = ['service-light', 'service-human', 'service-original', 'service-pro'] as const;
export type ApiModel = (typeof API_MODELS)[number];

/** One engine configuration: which model, at what size, and which matte stages around it. */
export interface TierConfig {
  /** Manifest id (engine/models/catalog.ts or a self-hoster's manifest). */
  model: string;
  /** Input side for resolution-flexible models (multiple of 32); fixed-size models ignore it. */
  inputSide: number;
  /** Flexible models: keep the frame's aspect ratio (long side = inputSide) instead of a square. */
  keepAspect: boolean;
  /** Long side of the working resolution where temporal, main-subject and guided filtering run. */
  workSide: number;
  /** Keyframe sampling: inference at most every `maxInterval` frames, sooner on a change. */
  sampling: SamplingOptions;
  /** Edge-aware upsampling (guided filter at workSide, applied at full resolution). */
  guided: { radius: number; eps: number } | null;
  temporal: TemporalOptions | null;
  /** Drop regions smaller than this fraction of the largest one (null keeps everything). */
  mainSubjectMinFraction: number | null;
}

/**
 * API model → engine configuration. The numbers come from `npm run bench:quality` and
 * `npm run bench:speed` (docs/engine.md has the measured tables).
 */
export const TIERS: Record<ApiModel, TierConfig> = {
  'service-light': {
    model: 'isnet',
    inputSide: 512,
    keepAspect: false,
    workSide: 320,
    sampling: { maxInterval: 8, changeThreshold: 0.12 },
    guided: { radius: 4, eps: 1e-3 },
    temporal: { strength: 0.7, tolerance: 0.35 },
    mainSubjectMinFraction: 0.15,
  },
  'service-human': {
    model: 'selfie',
    inputSide: 256,
    keepAspect: false,
    workSide: 384,
    sampling: { maxInterval: 1, changeThreshold: 0 },
    guided: { radius: 4, eps: 1e-3 },
    temporal: { strength: 0.7, tolerance: 0.35 },
    mainSubjectMinFraction: 0.15,
  },
  'service-original': {
    model: 'isnet',
    inputSide: 1024,
    keepAspect: false,
    workSide: 640,
    sampling: { maxInterval: 4, changeThreshold: 0.12 },
    guided: { radius: 6, eps: 1e-3 },
    temporal: { strength: 0.7, tolerance: 0.35 },
    mainSubjectMinFraction: 0.15,
  },
  'service-pro': {
    model: 'isnet',
    inputSide: 768,
    keepAspect: false,
    workSide: 768,
    sampling: { maxInterval: 1, changeThreshold: 0 },
    guided: { radius: 6, eps: 1e-3 },
    temporal: { strength: 0.7, tolerance: 0.35 },
    mainSubjectMinFraction: 0.15,
  },
};

export function isApiModel(v: string): v is ApiModel {
  return (API_MODELS as readonly string[]).includes(v);
}
