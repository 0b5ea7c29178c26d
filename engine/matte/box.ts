/** Scratch for the row pass, reused across calls (the guided filter runs six per frame). */
let rowSums = new Float32Array(0);

/**
 * Mean over a (2r+1)² window with clamped borders, O(1) per pixel: running sums along each row,
 * then running column sums updated one row at a time (row-major throughout, so cache-friendly).
 * Written into `out` when given (a caller's scratch, w·h long), else into a new array.
 */
export function boxMean(
  src: Float32Array,
  w: number,
  h: number,
  r: number,
  out: Float32Array = new Float32Array(w * h),
): Float32Array {
  if (rowSums.length < w * h) rowSums = new Float32Array(w * h);
  const rows = rowSums;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let acc = 0;
    for (let k = -r; k <= r; k++) acc += src[o + (k < 0 ? 0 : k >= w ? w - 1 : k)]!;
    for (let x = 0; x < w; x++) {
      rows[o + x] = acc;
      const add = x + r + 1;
      const sub = x - r;
      acc += src[o + (add >= w ? w - 1 : add)]! - src[o + (sub < 0 ? 0 : sub)]!;
    }
  }
  const col = new Float32Array(w);
  for (let k = -r; k <= r; k++) {
    const o = (k < 0 ? 0 : k >= h ? h - 1 : k) * w;
    for (let x = 0; x < w; x++) col[x] = col[x]! + rows[o + x]!;
  }
  const norm = 1 / ((2 * r + 1) * (2 * r + 1));
  for (let y = 0; y < h; y++) {
    const o = y * w;
    const add = y + r + 1;
    const sub = y - r;
    const a = (add >= h ? h - 1 : add) * w;
    const s = (sub < 0 ? 0 : sub) * w;
    for (let x = 0; x < w; x++) {
      out[o + x] = col[x]! * norm;
      col[x] = col[x]! + rows[a + x]! - rows[s + x]!;
    }
  }
  return out;
}
