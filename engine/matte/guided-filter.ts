import { boxMean } from './box';
import type { FloatMap, RgbaFrame } from './image';

export interface GuidedCoefficients {
  /** q = a * luma + b, computed at the working resolution. */
  a: FloatMap;
  b: FloatMap;
}

/**
 * He et al.'s guided filter, "fast" form: the linear coefficients are solved at the working
 * resolution (where the model's probability lives) against the frame's luma there, then applied
 * at full resolution to the full-resolution luma, so the matte's edges snap to the frame's.
 */
export function guidedCoefficients(p: FloatMap, guide: FloatMap, radius: number, eps: number): GuidedCoefficients {
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
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const cov = mIP[i]! - mI[i]! * mP[i]!;
    const v = mII[i]! - mI[i]! * mI[i]!;
    a[i] = cov / (v + eps);
    b[i] = mP[i]! - a[i]! * mI[i]!;
  }
  return { a: { data: boxMean(a, w, h, radius), width: w, height: h }, b: { data: boxMean(b, w, h, radius), width: w, height: h } };
}

/**
 * Writes the full-resolution alpha: bilinear-upsampled a, b applied to the frame's luma, then
 * soft (threshold null) or hard. One pass over the frame, no full-size float buffers.
 */
export function applyToFrame(
  coef: GuidedCoefficients | null,
  p: FloatMap,
  frame: RgbaFrame,
  threshold: number | null,
  out: Uint8Array,
): void {
  const { width: W, height: H, data } = frame;
  const lw = p.width;
  const lh = p.height;
  const sx = lw / W;
  const sy = lh / H;
  const x0 = new Int32Array(W);
  const x1 = new Int32Array(W);
  const fx = new Float32Array(W);
  for (let x = 0; x < W; x++) {
    const c = Math.min(lw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    x0[x] = Math.floor(c);
    x1[x] = Math.min(lw - 1, x0[x]! + 1);
    fx[x] = c - x0[x]!;
  }
  const A = coef?.a.data;
  const B = coef?.b.data ?? p.data;
  const rowA = new Float32Array(lw);
  const rowB = new Float32Array(lw);
  const soft = threshold === null;
  const cut = threshold ?? 0;
  for (let y = 0; y < H; y++) {
    // Blend the two source rows once, then interpolate along x.
    const cy = Math.min(lh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(cy);
    const r0 = y0 * lw;
    const r1 = Math.min(lh - 1, y0 + 1) * lw;
    const fy = cy - y0;
    for (let i = 0; i < lw; i++) {
      rowB[i] = B[r0 + i]! + (B[r1 + i]! - B[r0 + i]!) * fy;
      if (A) rowA[i] = A[r0 + i]! + (A[r1 + i]! - A[r0 + i]!) * fy;
    }
    const o = y * W;
    for (let x = 0; x < W; x++) {
      const a0 = x0[x]!;
      const a1 = x1[x]!;
      const f = fx[x]!;
      let q = rowB[a0]! + (rowB[a1]! - rowB[a0]!) * f;
      if (A) {
        const d = (o + x) * 4;
        const luma = (0.299 * data[d]! + 0.587 * data[d + 1]! + 0.114 * data[d + 2]!) * (1 / 255);
        q += (rowA[a0]! + (rowA[a1]! - rowA[a0]!) * f) * luma;
      }
      out[o + x] = soft ? (q <= 0 ? 0 : q >= 1 ? 255 : (q * 255 + 0.5) | 0) : q >= cut ? 255 : 0;
    }
  }
}
