import type { FloatMap } from './image';

/**
 * Keeps the main subject: connected regions (probability ≥ 0.5, 8-connected) smaller than
 * `minFraction` of the largest one are faded out, so a stray detection in the background does
 * not flash in and out. Soft edges of the kept regions stay as they are.
 */
export function keepMainSubject(p: FloatMap, minFraction: number): FloatMap {
  const { width: w, height: h, data } = p;
  const labels = new Int32Array(w * h);
  const sizes: number[] = [0];
  // Flood fill with an explicit stack; a pixel is pushed once, so w * h entries suffice.
  const stack = new Int32Array(w * h);
  for (let i = 0; i < data.length; i++) {
    if (data[i]! < 0.5 || labels[i]) continue;
    const id = sizes.length;
    let size = 0;
    let top = 0;
    labels[i] = id;
    stack[top++] = i;
    while (top) {
      const k = stack[--top]!;
      size++;
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
  }
  if (sizes.length <= 2) return p;
  const largest = Math.max(...sizes);
  const drop = sizes.map((s) => s < largest * minFraction);
  if (!drop.some(Boolean)) return p;
  // Fade dropped regions and their soft rims: anything not near a kept region goes to zero.
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = labels[i] && drop[labels[i]!] ? 0 : data[i]!;
  return { data: out, width: w, height: h };
}
