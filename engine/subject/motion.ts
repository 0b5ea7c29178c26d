import type { FlowField } from '../matte/flow';
import type { FloatMap } from '../matte/image';

/** u = a0 + a1·x + a2·y, v = b0 + b1·x + b2·y, in flow-grid pixels. */
export interface AffineMotion {
  a: [number, number, number];
  b: [number, number, number];
}

/** Grid step of the samples the fit reads: a few thousand are plenty for six parameters. */
const STEP = 2;
const ROUNDS = 4;

/**
 * The camera's own motion: an affine model fitted to the flow by iteratively reweighted least
 * squares. Each round weighs a sample by how well the last model explains it (Cauchy weights
 * scaled by the median residual), so a subject moving against the background, even a large
 * one, stops pulling the fit after the first round.
 */
export function fitCameraMotion(flow: FlowField): AffineMotion {
  const { width: w, height: h, u, v } = flow;
  let model: AffineMotion = { a: [0, 0, 0], b: [0, 0, 0] };
  let scale = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const ata = new Float64Array(9);
    const atu = new Float64Array(3);
    const atv = new Float64Array(3);
    for (let y = 0; y < h; y += STEP) {
      for (let x = 0; x < w; x += STEP) {
        const i = y * w + x;
        const r = Math.hypot(u[i]! - predict(model.a, x, y), v[i]! - predict(model.b, x, y));
        const wt = 1 / (1 + (r / scale) ** 2);
        const row = [1, x, y];
        for (let j = 0; j < 3; j++) {
          for (let k = 0; k < 3; k++) ata[j * 3 + k] = ata[j * 3 + k]! + wt * row[j]! * row[k]!;
          atu[j] = atu[j]! + wt * row[j]! * u[i]!;
          atv[j] = atv[j]! + wt * row[j]! * v[i]!;
        }
      }
    }
    const a = solve3(ata, atu);
    const b = solve3(ata, atv);
    if (!a || !b) break;
    model = { a, b };
    scale = Math.max(0.05, 2 * median(residualsOf(flow, model)));
  }
  return model;
}

/** Per pixel of the flow grid, how far its motion is from the camera's (flow-grid pixels). */
export function ownMotion(flow: FlowField, camera: AffineMotion): FloatMap {
  return {
    data: Float32Array.from(residualsOf(flow, camera, 1)),
    width: flow.width,
    height: flow.height,
  };
}

function residualsOf(flow: FlowField, m: AffineMotion, step = STEP): number[] {
  const out: number[] = [];
  for (let y = 0; y < flow.height; y += step) {
    for (let x = 0; x < flow.width; x += step) {
      const i = y * flow.width + x;
      out.push(Math.hypot(flow.u[i]! - predict(m.a, x, y), flow.v[i]! - predict(m.b, x, y)));
    }
  }
  return out;
}

const predict = (c: readonly number[], x: number, y: number) => c[0]! + c[1]! * x + c[2]! * y;

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const s = Float64Array.from(values).sort();
  return s[s.length >> 1]!;
}

/** Solves the 3×3 system m·x = r by Cramer's rule; null when it is singular. */
function solve3(m: Float64Array, r: Float64Array): [number, number, number] | null {
  const det = (a: ArrayLike<number>) =>
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const d = det(m);
  if (Math.abs(d) < 1e-9) return null;
  const col = (c: number) => {
    const t = Float64Array.from(m);
    for (let j = 0; j < 3; j++) t[j * 3 + c] = r[j]!;
    return det(t) / d;
  };
  return [col(0), col(1), col(2)];
}
