import type { FloatMap } from './image';

/** Dense displacement field: pixel (x, y) of the reference is at (x + u, y + v) in the target. */
export interface FlowField {
  u: Float32Array;
  v: Float32Array;
  width: number;
  height: number;
}

const PATCH = 8;
const STRIDE = 4;
const ITERATIONS = 8;
/**
 * Coarsest pyramid level is at least this wide: a head crossing a fifth of the frame in a few
 * frames is under a patch there (at 24 such motion tore the carried matte apart).
 */
const COARSEST = 12;
/** Luma is 0..1; densification weighs patches by 1 / max(1, |residual| in grey levels). */
const GREY = 255;

/** Half-size level: 2x2 means. */
function halve(m: FloatMap): FloatMap {
  const w = Math.max(1, m.width >> 1);
  const h = Math.max(1, m.height >> 1);
  const out = new Float32Array(w * h);
  const W = m.width;
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * W;
    const r1 = Math.min(m.height - 1, 2 * y + 1) * W;
    for (let x = 0; x < w; x++) {
      const x0 = 2 * x;
      const x1 = Math.min(W - 1, x0 + 1);
      out[y * w + x] =
        0.25 * (m.data[r0 + x0]! + m.data[r0 + x1]! + m.data[r1 + x0]! + m.data[r1 + x1]!);
    }
  }
  return { data: out, width: w, height: h };
}

function pyramid(m: FloatMap): FloatMap[] {
  const levels = [m];
  while (
    levels[levels.length - 1]!.width >= 2 * COARSEST &&
    levels[levels.length - 1]!.height >= 2 * PATCH
  ) {
    levels.push(halve(levels[levels.length - 1]!));
  }
  return levels;
}

/** Bilinear sample with clamped coordinates. */
function sample(img: Float32Array, w: number, h: number, x: number, y: number): number {
  const cx = x < 0 ? 0 : x > w - 1 ? w - 1 : x;
  const cy = y < 0 ? 0 : y > h - 1 ? h - 1 : y;
  const ix = cx | 0;
  const iy = cy | 0;
  const jx = ix + 1 < w ? ix + 1 : ix;
  const jy = iy + 1 < h ? iy + 1 : iy;
  const fx = cx - ix;
  const fy = cy - iy;
  const r0 = iy * w;
  const r1 = jy * w;
  const top = img[r0 + ix]! + (img[r0 + jx]! - img[r0 + ix]!) * fx;
  const bot = img[r1 + ix]! + (img[r1 + jx]! - img[r1 + ix]!) * fx;
  return top + (bot - top) * fy;
}

/** Patch origins along one axis: every STRIDE pixels, the last one flush with the border. */
function origins(size: number): Int32Array {
  if (size <= PATCH) return Int32Array.of(0);
  const list: number[] = [];
  for (let p = 0; p + PATCH <= size; p += STRIDE) list.push(p);
  if (list[list.length - 1]! + PATCH < size) list.push(size - PATCH);
  return Int32Array.from(list);
}

/**
 * Fills `res` with target(patch + (u, v)) − template for one 8x8 patch and returns its mean.
 * The displacement is the same for the whole patch, so the bilinear weights are computed once.
 * With `ref` given, the template is read from it at (x0, y0) instead of `tpl`.
 */
function patchResidual(
  I1: Float32Array,
  w: number,
  h: number,
  px: number,
  py: number,
  tpl: Float32Array,
  res: Float32Array,
  ref?: Float32Array,
  x0 = 0,
  y0 = 0,
): number {
  const fxl = Math.floor(px);
  const fyl = Math.floor(py);
  const fx = px - fxl;
  const fy = py - fyl;
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  const inside = fxl >= 0 && fyl >= 0 && fxl + PATCH < w && fyl + PATCH < h;
  let sum = 0;
  for (let j = 0; j < PATCH; j++) {
    for (let i = 0; i < PATCH; i++) {
      let s: number;
      if (inside) {
        const o = (fyl + j) * w + fxl + i;
        s = I1[o]! * w00 + I1[o + 1]! * w10 + I1[o + w]! * w01 + I1[o + w + 1]! * w11;
      } else s = sample(I1, w, h, px + i, py + j);
      const r = s - (ref ? ref[(y0 + j) * w + x0 + i]! : tpl[j * PATCH + i]!);
      res[j * PATCH + i] = r;
      sum += r;
    }
  }
  return sum / (PATCH * PATCH);
}

/**
 * Inverse-compositional Lucas-Kanade for one patch (translation only, zero-mean residual so
 * lighting changes don't pull it) from (u0, v0). Writes the displacement to `out`. A patch that
 * drifted off (textureless, occluded) stays at its start.
 */
function alignPatch(
  I1: Float32Array,
  w: number,
  h: number,
  x0: number,
  y0: number,
  tpl: Float32Array,
  gx: Float32Array,
  gy: Float32Array,
  H: { hxx: number; hxy: number; hyy: number; det: number },
  res: Float32Array,
  u0: number,
  v0: number,
  out: Float32Array,
): void {
  let u = u0;
  let v = v0;
  let startCost = -1;
  let cost = 0;
  for (let it = 0; it < ITERATIONS; it++) {
    const mean = patchResidual(I1, w, h, x0 + u, y0 + v, tpl, res);
    let bx = 0;
    let by = 0;
    cost = 0;
    for (let q = 0; q < PATCH * PATCH; q++) {
      const r = res[q]! - mean;
      bx += gx[q]! * r;
      by += gy[q]! * r;
      cost += r * r;
    }
    if (startCost < 0) startCost = cost;
    const du = (H.hyy * bx - H.hxy * by) / H.det;
    const dv = (H.hxx * by - H.hxy * bx) / H.det;
    u -= du;
    v -= dv;
    if (du * du + dv * dv < 1e-3) break;
  }
  const far = (u - u0) ** 2 + (v - v0) ** 2 > PATCH * PATCH;
  if (far || cost > startCost || !Number.isFinite(u) || !Number.isFinite(v)) {
    u = u0;
    v = v0;
  }
  out[0] = u;
  out[1] = v;
}

/** Zero-mean residual energy of a patch displaced by (u, v). */
function patchEnergy(
  I1: Float32Array,
  w: number,
  h: number,
  x0: number,
  y0: number,
  tpl: Float32Array,
  res: Float32Array,
  u: number,
  v: number,
): number {
  const mean = patchResidual(I1, w, h, x0 + u, y0 + v, tpl, res);
  let e = 0;
  for (let q = 0; q < PATCH * PATCH; q++) e += (res[q]! - mean) ** 2;
  return e;
}

/**
 * One pyramid level of Dense Inverse Search (Kroeger et al., ECCV 2016): every overlapping
 * 8x8 patch of the reference is aligned to the target (alignPatch), starting from the coarser
 * level's flow and, with `fromRest`, from zero too, keeping the better fit; then each pixel
 * averages the patches that cover it, weighted by how well each one explains that pixel.
 */
function refineLevel(
  ref: FloatMap,
  target: FloatMap,
  init: FlowField,
  fromRest: boolean,
): FlowField {
  const { width: w, height: h } = ref;
  const I0 = ref.data;
  const I1 = target.data;
  const xs = origins(w);
  const ys = origins(h);
  const n = xs.length * ys.length;
  const pu = new Float32Array(n);
  const pv = new Float32Array(n);
  const gx = new Float32Array(PATCH * PATCH);
  const gy = new Float32Array(PATCH * PATCH);
  const tpl = new Float32Array(PATCH * PATCH);
  const res = new Float32Array(PATCH * PATCH);
  const aligned = new Float32Array(2);
  let k = 0;
  for (const y0 of ys) {
    for (const x0 of xs) {
      // Template gradients (central differences) and the patch's 2x2 Hessian.
      let hxx = 0;
      let hxy = 0;
      let hyy = 0;
      let u = 0;
      let v = 0;
      for (let j = 0; j < PATCH; j++) {
        const y = y0 + j;
        const ym = y > 0 ? y - 1 : y;
        const yp = y + 1 < h ? y + 1 : y;
        for (let i = 0; i < PATCH; i++) {
          const x = x0 + i;
          const xm = x > 0 ? x - 1 : x;
          const xp = x + 1 < w ? x + 1 : x;
          const q = j * PATCH + i;
          const dx = (I0[y * w + xp]! - I0[y * w + xm]!) / Math.max(1, xp - xm);
          const dy = (I0[yp * w + x]! - I0[ym * w + x]!) / Math.max(1, yp - ym);
          gx[q] = dx;
          gy[q] = dy;
          tpl[q] = I0[y * w + x]!;
          hxx += dx * dx;
          hxy += dx * dy;
          hyy += dy * dy;
          u += init.u[y * w + x]!;
          v += init.v[y * w + x]!;
        }
      }
      u /= PATCH * PATCH;
      v /= PATCH * PATCH;
      const det = hxx * hyy - hxy * hxy;
      if (det > 1e-9) {
        const hessian = { hxx, hxy, hyy, det };
        alignPatch(I1, w, h, x0, y0, tpl, gx, gy, hessian, res, u, v, aligned);
        u = aligned[0]!;
        v = aligned[1]!;
        // A coarse level smears a moving subject's motion over the still background next to it;
        // a patch that fits better starting from rest keeps still. The finest level starts from
        // a field already cleaned this way, and trying again there cost DAVIS J.
        if (fromRest && (u !== 0 || v !== 0)) {
          alignPatch(I1, w, h, x0, y0, tpl, gx, gy, hessian, res, 0, 0, aligned);
          const [su, sv] = [aligned[0]!, aligned[1]!];
          if (
            patchEnergy(I1, w, h, x0, y0, tpl, res, su, sv) <
            patchEnergy(I1, w, h, x0, y0, tpl, res, u, v)
          ) {
            u = su;
            v = sv;
          }
        }
      }
      pu[k] = u;
      pv[k] = v;
      k++;
    }
  }
  // Densify: per pixel, patches covering it weighted by 1 / max(1, photometric error).
  const su = new Float32Array(w * h);
  const sv = new Float32Array(w * h);
  const sw = new Float32Array(w * h);
  k = 0;
  for (const y0 of ys) {
    for (const x0 of xs) {
      const u = pu[k]!;
      const v = pv[k]!;
      k++;
      patchResidual(I1, w, h, x0 + u, y0 + v, tpl, res, I0, x0, y0);
      for (let j = 0; j < PATCH; j++) {
        const row = (y0 + j) * w + x0;
        for (let i = 0; i < PATCH; i++) {
          const e = Math.abs(res[j * PATCH + i]!) * GREY;
          const wt = 1 / (e > 1 ? e : 1);
          const p = row + i;
          su[p] = su[p]! + wt * u;
          sv[p] = sv[p]! + wt * v;
          sw[p] = sw[p]! + wt;
        }
      }
    }
  }
  for (let p = 0; p < w * h; p++) {
    if (sw[p]! > 0) {
      su[p] = su[p]! / sw[p]!;
      sv[p] = sv[p]! / sw[p]!;
    } else {
      su[p] = init.u[p]!;
      sv[p] = init.v[p]!;
    }
  }
  return { u: su, v: sv, width: w, height: h };
}

/** Flow at twice the size (values doubled), bilinear. */
function upsampleFlow(f: FlowField, w: number, h: number): FlowField {
  const u = new Float32Array(w * h);
  const v = new Float32Array(w * h);
  const sx = f.width / w;
  const sy = f.height / h;
  const kx = w / f.width;
  const ky = h / f.height;
  for (let y = 0; y < h; y++) {
    const fy = (y + 0.5) * sy - 0.5;
    for (let x = 0; x < w; x++) {
      const fx = (x + 0.5) * sx - 0.5;
      u[y * w + x] = sample(f.u, f.width, f.height, fx, fy) * kx;
      v[y * w + x] = sample(f.v, f.width, f.height, fx, fy) * ky;
    }
  }
  return { u, v, width: w, height: h };
}

/** No motion, at the size of `m`. */
export function stillFlow(m: { width: number; height: number }): FlowField {
  const n = m.width * m.height;
  return { u: new Float32Array(n), v: new Float32Array(n), width: m.width, height: m.height };
}

/**
 * Dense optical flow from `ref` to `target` (same size, luma 0..1), coarse to fine with DIS at
 * every level. Cheap enough to run per frame at a few hundred pixels wide.
 */
export function denseFlow(ref: FloatMap, target: FloatMap): FlowField {
  if (ref.width !== target.width || ref.height !== target.height)
    throw new Error('denseFlow: images differ in size');
  if (ref.width < PATCH || ref.height < PATCH) return stillFlow(ref);
  const a = pyramid(ref);
  const b = pyramid(target);
  const top = a.length - 1;
  let flow: FlowField = {
    u: new Float32Array(a[top]!.width * a[top]!.height),
    v: new Float32Array(a[top]!.width * a[top]!.height),
    width: a[top]!.width,
    height: a[top]!.height,
  };
  for (let l = top; l >= 0; l--) {
    if (flow.width !== a[l]!.width || flow.height !== a[l]!.height)
      flow = upsampleFlow(flow, a[l]!.width, a[l]!.height);
    flow = refineLevel(a[l]!, b[l]!, flow, l > 0);
  }
  return flow;
}

/**
 * Pulls `map` (laid over the target) back onto the reference along `flow`: out(x) = map(x + f(x)).
 * The map and flow may differ in size; the flow is scaled to the map.
 */
export function warpBack(map: FloatMap, flow: FlowField): FloatMap {
  const { width: W, height: H, data: src } = map;
  const { width: fw, height: fh, u: fu, v: fv } = flow;
  const kx = W / fw;
  const ky = H / fh;
  // Where each output column samples the flow grid (half-pixel centres), computed once.
  const c0 = new Int32Array(W);
  const c1 = new Int32Array(W);
  const cf = new Float32Array(W);
  for (let x = 0; x < W; x++) {
    const c = Math.min(fw - 1, Math.max(0, (x + 0.5) / kx - 0.5));
    c0[x] = c | 0;
    c1[x] = Math.min(fw - 1, c0[x]! + 1);
    cf[x] = c - c0[x]!;
  }
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const r = Math.min(fh - 1, Math.max(0, (y + 0.5) / ky - 0.5));
    const r0 = (r | 0) * fw;
    const r1 = Math.min(fh - 1, (r | 0) + 1) * fw;
    const rf = r - (r | 0);
    for (let x = 0; x < W; x++) {
      const a = r0 + c0[x]!;
      const b = r0 + c1[x]!;
      const c = r1 + c0[x]!;
      const d = r1 + c1[x]!;
      const f = cf[x]!;
      const ut = fu[a]! + (fu[b]! - fu[a]!) * f;
      const ub = fu[c]! + (fu[d]! - fu[c]!) * f;
      const vt = fv[a]! + (fv[b]! - fv[a]!) * f;
      const vb = fv[c]! + (fv[d]! - fv[c]!) * f;
      let px = x + (ut + (ub - ut) * rf) * kx;
      let py = y + (vt + (vb - vt) * rf) * ky;
      px = px < 0 ? 0 : px > W - 1 ? W - 1 : px;
      py = py < 0 ? 0 : py > H - 1 ? H - 1 : py;
      const ix = px | 0;
      const iy = py | 0;
      const jx = ix + 1 < W ? 1 : 0;
      const jy = iy + 1 < H ? W : 0;
      const tx = px - ix;
      const ty = py - iy;
      const o = iy * W + ix;
      const top = src[o]! + (src[o + jx]! - src[o]!) * tx;
      const bot = src[o + jy]! + (src[o + jy + jx]! - src[o + jy]!) * tx;
      out[y * W + x] = top + (bot - top) * ty;
    }
  }
  return { data: out, width: W, height: H };
}
