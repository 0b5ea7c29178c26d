/** Mean over a (2r+1)² window with clamped borders, O(1) per pixel (running sums). */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const line = new Float32Array(Math.max(w, h) + 2 * r + 1);
  // Rows: copy each into a border-replicated line, then slide a window over it.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = -r; x < w + r; x++) line[x + r] = src[row + (x < 0 ? 0 : x >= w ? w - 1 : x)]!;
    let acc = 0;
    for (let k = 0; k < 2 * r + 1; k++) acc += line[k]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = acc;
      acc += line[x + 2 * r + 1]! - line[x]!;
    }
  }
  const norm = 1 / ((2 * r + 1) * (2 * r + 1));
  for (let x = 0; x < w; x++) {
    for (let y = -r; y < h + r; y++) line[y + r] = tmp[(y < 0 ? 0 : y >= h ? h - 1 : y) * w + x]!;
    let acc = 0;
    for (let k = 0; k < 2 * r + 1; k++) acc += line[k]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = acc * norm;
      acc += line[y + 2 * r + 1]! - line[y]!;
    }
  }
  return out;
}
