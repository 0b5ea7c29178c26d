import { boxMean } from './box';
import type { FloatMap, GrayFrame } from './image';

export interface GuidedCoefficients {
  /** q = a * luma + b, computed at the working resolution. */
  a: FloatMap;
  b: FloatMap;
}

/**
 * He et al.'s guided filter, "fast" form: the linear coefficients are solved at the working
 * resolution (where the model's probability lives) against the frame's luma there, then applied
 * at full resolution to the full-resolution luma, so the matte's edges snap to the frame's.
 * `gain` > 1 narrows the soft band at the subject's edge (values near 0.5 move apart; the
 * boundary at 0.5 stays where it is).
 */
export function guidedCoefficients(
  p: FloatMap,
  guide: FloatMap,
  radius: number,
  eps: number,
  gain = 1,
): GuidedCoefficients {
  const { width: w, height: h } = p;
  const n = w * h;
  const I = guide.data;
  const P = p.data;
  const ip = new Float32Array(n);
  const ii = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ip[i] = I[i]! * P[i]!;
    ii[i] = I[i]! * I[i]!;
  }
  const mI = boxMean(I, w, h, radius);
  const mP = boxMean(P, w, h, radius);
  const mIP = boxMean(ip, w, h, radius);
  const mII = boxMean(ii, w, h, radius);
  // ip and ii are spent: they take a and b.
  const a = ip;
  const b = ii;
  for (let i = 0; i < n; i++) {
    const cov = mIP[i]! - mI[i]! * mP[i]!;
    const v = mII[i]! - mI[i]! * mI[i]!;
    const ai = cov / (v + eps);
    // gain steepens the result around 0.5, q' = gain (q − 0.5) + 0.5, folded into a and b.
    a[i] = ai * gain;
    b[i] = (mP[i]! - ai * mI[i]! - 0.5) * gain + 0.5;
  }
  return {
    a: { data: boxMean(a, w, h, radius), width: w, height: h },
    b: { data: boxMean(b, w, h, radius), width: w, height: h },
  };
}

/**
 * Writes the full-resolution alpha: bilinear-upsampled a, b applied to the frame's luma, then
 * soft (threshold null) or hard. One pass over the frame, no full-size float buffers.
 */
export function applyToFrame(
  coef: GuidedCoefficients | null,
  p: FloatMap,
  luma: GrayFrame,
  threshold: number | null,
  out: Uint8Array,
): void {
  const { width: W, height: H, data } = luma;
  const lw = p.width;
  const lh = p.height;
  const sx = lw / W;
  const sy = lh / H;
  const x0 = new Int32Array(W);
  const fx = new Float32Array(W);
  for (let x = 0; x < W; x++) {
    const c = Math.min(lw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    x0[x] = Math.floor(c);
    fx[x] = c - x0[x]!;
  }
  const A = coef?.a.data;
  const B = coef?.b.data ?? p.data;
  // One spare sample at the right edge, so x0 + 1 never needs a clamp.
  const rowA = new Float32Array(lw + 1);
  const rowB = new Float32Array(lw + 1);
  // Stores clamp and round to 0..255 by themselves.
  const clamped = new Uint8ClampedArray(out.buffer, out.byteOffset, W * H);
  const cut = threshold ?? 0;
  for (let y = 0; y < H; y++) {
    // Blend the two source rows once, then interpolate along x.
    const cy = Math.min(lh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(cy);
    const r0 = y0 * lw;
    const r1 = Math.min(lh - 1, y0 + 1) * lw;
    const fy = cy - y0;
    for (let i = 0; i < lw; i++) rowB[i] = B[r0 + i]! + (B[r1 + i]! - B[r0 + i]!) * fy;
    rowB[lw] = rowB[lw - 1]!;
    if (A) {
      for (let i = 0; i < lw; i++) rowA[i] = A[r0 + i]! + (A[r1 + i]! - A[r0 + i]!) * fy;
      rowA[lw] = rowA[lw - 1]!;
    }
    const o = y * W;
    for (let x = 0; x < W; x++) {
      const i = x0[x]!;
      const f = fx[x]!;
      let q = rowB[i]! + (rowB[i + 1]! - rowB[i]!) * f;
      if (A) q += (rowA[i]! + (rowA[i + 1]! - rowA[i]!) * f) * (data[o + x]! / 255);
      clamped[o + x] = threshold === null ? q * 255 : q >= cut ? 255 : 0;
    }
  }
}
