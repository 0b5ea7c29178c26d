import type { FloatMap } from './image';

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
  const { width: w, height: h, data } = p;
  const labels = new Int32Array(w * h);
  const sizes: number[] = [0];
  const sums: number[] = [0];
  // Flood fill with an explicit stack; a pixel is pushed once, so w * h entries suffice.
  const stack = new Int32Array(w * h);
  for (let i = 0; i < data.length; i++) {
    if (data[i]! < 0.5 || labels[i]) continue;
    const id = sizes.length;
    let size = 0;
    let sum = 0;
    let top = 0;
    labels[i] = id;
    stack[top++] = i;
    while (top) {
      const k = stack[--top]!;
      size++;
      sum += data[k]!;
      const y = (k / w) | 0;
      const x = k - y * w;
      const y0 = y > 0 ? y - 1 : 0;
      const y1 = y < h - 1 ? y + 1 : y;
      const x0 = x > 0 ? x - 1 : 0;
      const x1 = x < w - 1 ? x + 1 : x;
      for (let yy = y0; yy <= y1; yy++) {
        for (let j = yy * w + x0, e = yy * w + x1; j <= e; j++) {
          if (!labels[j] && data[j]! >= 0.5) {
            labels[j] = id;
            stack[top++] = j;
          }
        }
      }
    }
    sizes.push(size);
    sums.push(sum);
  }
  if (sizes.length <= 2) return p;
  const largest = Math.max(...sizes);
  const drop = sizes.map((s, id) => s < largest * minFraction && sums[id]! < s * SURE_MEAN);
  if (!drop.some(Boolean)) return p;
  // Dropped regions go to zero (their pixels at p ≥ 0.5; a rim below 0.5 is left to the guided filter).
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = labels[i] && drop[labels[i]!] ? 0 : data[i]!;
  return { data: out, width: w, height: h };
}
