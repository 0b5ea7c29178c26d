import { apiModel, type ApiModel } from '../../engine/api-models';

/**
 * What a job costs, in whole credits: ceil(rate per second × duration × frame-rate multiplier).
 *
 * - Rates per second of video: each model's `creditsPerSecond` (engine/api-models.ts).
 * - A blurred output (background.type "blur") needs the segmentation and the blur render, so
 *   its blur rate of 1 credit/s is added to the model's rate.
 * - Frame-rate multiplier: 1 up to 30 fps, fps/30 above (a 60 fps video costs twice as much),
 *   measured on the source frame rate, because every source frame is segmented.
 */
export const BLUR_RATE = 1;

export function fpsMultiplier(fps: number): number {
  return fps > 30 ? fps / 30 : 1;
}

export interface PriceInput {
  model: ApiModel;
  durationSeconds: number;
  fps: number;
  blur?: boolean;
}

export function priceJob({ model, durationSeconds, fps, blur = false }: PriceInput): number {
  const rate = apiModel(model).creditsPerSecond + (blur ? BLUR_RATE : 0);
  const exact = rate * durationSeconds * fpsMultiplier(fps);
  // Round away float noise (0.75 × 4.000000001) before taking the ceiling; never charge 0.
  return Math.max(1, Math.ceil(Math.round(exact * 1e6) / 1e6));
}
