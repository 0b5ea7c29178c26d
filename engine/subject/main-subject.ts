import type { FloatMap } from '../matte/image';
import { labelRegions } from '../matte/regions';

/**
 * Mean probability from which a small region counts as part of the subject. Stray detections
 * are ones the model is unsure of (mean 0.5–0.7 on the clips looked at); a raised leg or a
 * hand that the working resolution cuts off from the body, or a ball, is sure (0.8–0.98).
 */
const SURE_MEAN = 0.8;

/**
 * Keeps the main subject: connected regions (probability ≥ 0.5, 8-connected) smaller than
 * `minFraction` of the largest one and unsure (mean below SURE_MEAN) are faded out, so a stray
 * detection in the background does not flash in and out. Soft edges of the kept regions stay
 * as they are.
 */
export function keepMainSubject(p: FloatMap, minFraction: number): FloatMap {
  const { labels, regions } = labelRegions(p, 0.5);
  if (regions.length <= 1) return p;
  const largest = Math.max(...regions.map((r) => r.size));
  const drop = [
    false,
    ...regions.map((r) => r.size < largest * minFraction && r.sum < r.size * SURE_MEAN),
  ];
  if (!drop.some(Boolean)) return p;
  // Dropped regions go to zero (their pixels at p ≥ 0.5; a rim below 0.5 is left to the guided
  // filter).
  const out = new Float32Array(p.data.length);
  for (let i = 0; i < out.length; i++) out[i] = drop[labels[i]!] ? 0 : p.data[i]!;
  return { data: out, width: p.width, height: p.height };
}
