import { boxMean } from '../../engine/matte/box';

/** DAVIS-style scores for one frame; masks are one byte per pixel, ≥ 128 = subject. */

export function iou(pred: Uint8Array, gt: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < pred.length; i++) {
    const p = pred[i]! >= 128;
    const g = gt[i]! >= 128;
    if (p && g) inter++;
    if (p || g) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/** Boundary pixels: where the mask differs from its right, lower or lower-right neighbour. */
function boundary(mask: Uint8Array, w: number, h: number): Uint8Array {
  const b = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = mask[i]! >= 128;
      const r = x + 1 < w ? mask[i + 1]! >= 128 : v;
      const d = y + 1 < h ? mask[i + w]! >= 128 : v;
      const rd = x + 1 < w && y + 1 < h ? mask[i + w + 1]! >= 128 : v;
      if (v !== r || v !== d || v !== rd) b[i] = 1;
    }
  }
  return b;
}

/** Pixels of `a` that lie within `r` (a disk) of some pixel of `b`. */
function matched(a: Uint8Array, b: Uint8Array, w: number, h: number, r: number): number {
  const offsets: [number, number][] = [];
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= r * r) offsets.push([dx, dy]);
  let n = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!a[y * w + x]) continue;
      for (const [dx, dy] of offsets) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < w && yy < h && b[yy * w + xx]) {
          n++;
          break;
        }
      }
    }
  }
  return n;
}

/** The DAVIS boundary F-measure (tolerance 0.008 of the image diagonal). */
export function boundaryF(pred: Uint8Array, gt: Uint8Array, w: number, h: number): number {
  const r = Math.ceil(0.008 * Math.hypot(w, h));
  const bp = boundary(pred, w, h);
  const bg = boundary(gt, w, h);
  let np = 0;
  let ng = 0;
  for (let i = 0; i < bp.length; i++) {
    np += bp[i]!;
    ng += bg[i]!;
  }
  if (np === 0 && ng === 0) return 1;
  if (np === 0 || ng === 0) return 0;
  const precision = matched(bp, bg, w, h, r) / np;
  const recall = matched(bg, bp, w, h, r) / ng;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Mean |alpha_t − alpha_t−1| (0..1) over pixels whose ground truth did not change. */
export function flickerSum(
  prev: Uint8Array,
  cur: Uint8Array,
  gtPrev: Uint8Array,
  gtCur: Uint8Array,
): { sum: number; n: number } {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < cur.length; i++) {
    if (gtPrev[i]! >= 128 !== gtCur[i]! >= 128) continue;
    sum += Math.abs(cur[i]! - prev[i]!) / 255;
    n++;
  }
  return { sum, n };
}

/**
 * Reference mattes made from the ground truth itself: its edge softened by a 3×3 box (one
 * anti-aliased pixel) and the mask grown by one pixel. Edges that are right to within a pixel
 * still move with the subject, and the flicker measure counts that wherever the ground truth's
 * own label did not change: these rows show how low flicker can go for a matte that is not
 * pixel-exact.
 */
export function groundTruthReferences(
  gt: Uint8Array[],
  w: number,
  h: number,
): { name: string; frames: Uint8Array[] }[] {
  const softened = (m: Uint8Array) =>
    Uint8Array.from(boxMean(Float32Array.from(m), w, h, 1), Math.round);
  const grown = (m: Uint8Array) => {
    const out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let v = 0;
        for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
          for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++)
            v = Math.max(v, m[yy * w + xx]!);
        }
        out[y * w + x] = v;
      }
    }
    return out;
  };
  return [
    { name: 'ref: ground truth, 1-px soft edge', frames: gt.map(softened) },
    { name: 'ref: ground truth, grown 1 px', frames: gt.map(grown) },
  ];
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/**
 * Share of the mask's subject (≥ 128) farther than `r` pixels (a square's half side) from the
 * ground truth's: background kept around the subject, such as a band along its edges.
 */
export function spillOutside(
  pred: Uint8Array,
  gt: Uint8Array,
  w: number,
  h: number,
  r: number,
): number {
  const g = new Float32Array(w * h);
  for (let i = 0; i < g.length; i++) g[i] = gt[i]! >= 128 ? 1 : 0;
  const near = boxMean(g, w, h, r);
  // Any ground-truth pixel in the window makes the mean at least 1 / (2r + 1)².
  const floor = 0.5 / (2 * r + 1) ** 2;
  let subject = 0;
  let outside = 0;
  for (let i = 0; i < pred.length; i++) {
    if (pred[i]! < 128) continue;
    subject++;
    if (near[i]! < floor) outside++;
  }
  return subject ? outside / subject : 0;
}
