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
  const stack: number[] = [];
  for (let i = 0; i < data.length; i++) {
    if (data[i]! < 0.5 || labels[i]) continue;
    const id = sizes.length;
    let size = 0;
    labels[i] = id;
    stack.push(i);
    while (stack.length) {
      const k = stack.pop()!;
      size++;
      const x = k % w;
      const y = (k - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (!labels[j] && data[j]! >= 0.5) {
            labels[j] = id;
            stack.push(j);
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
