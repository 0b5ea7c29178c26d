import type { FloatMap } from './image';
import { resizeMap } from './image';

const BLOCK = 8;
const SEARCH = 6;
/** Long side of the grid motion is estimated on (cheap, and big motions become small). */
const MOTION_SIDE = 160;

/**
 * Carries a matte from the previous frame onto the current one on frames the model skips:
 * block matching (sum of absolute luma differences) on a small grid gives, for each block of
 * the current frame, where it came from; the flow is smoothed, upsampled and used to pull the
 * previous matte along (backward warping, so every pixel gets a value and nothing tears).
 */
export function propagate(prevMatte: FloatMap, prevLuma: FloatMap, curLuma: FloatMap): FloatMap {
  const s = MOTION_SIDE / Math.max(curLuma.width, curLuma.height);
  const mw = Math.max(BLOCK, Math.round(curLuma.width * s));
  const mh = Math.max(BLOCK, Math.round(curLuma.height * s));
  const a = resizeMap(prevLuma, mw, mh).data;
  const b = resizeMap(curLuma, mw, mh).data;
  const bw = Math.ceil(mw / BLOCK);
  const bh = Math.ceil(mh / BLOCK);
  const fx = new Float32Array(bw * bh);
  const fy = new Float32Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const x0 = bx * BLOCK;
      const y0 = by * BLOCK;
      const x1 = Math.min(mw, x0 + BLOCK);
      const y1 = Math.min(mh, y0 + BLOCK);
      let best = Infinity;
      let bdx = 0;
      let bdy = 0;
      for (let dy = -SEARCH; dy <= SEARCH; dy++) {
        if (y0 + dy < 0 || y1 + dy > mh) continue;
        for (let dx = -SEARCH; dx <= SEARCH; dx++) {
          if (x0 + dx < 0 || x1 + dx > mw) continue;
          let sad = 0;
          for (let y = y0; y < y1 && sad < best; y++) {
            const rb = y * mw;
            const ra = (y + dy) * mw + dx;
            for (let x = x0; x < x1; x++) sad += Math.abs(b[rb + x]! - a[ra + x]!);
          }
          // Prefer no motion on ties so flat regions stay put.
          const cost = sad + 1e-3 * (Math.abs(dx) + Math.abs(dy));
          if (cost < best) {
            best = cost;
            bdx = dx;
            bdy = dy;
          }
        }
      }
      fx[by * bw + bx] = bdx / s;
      fy[by * bw + bx] = bdy / s;
    }
  }
  const W = prevMatte.width;
  const H = prevMatte.height;
  const flowX = resizeMap({ data: fx, width: bw, height: bh }, W, H).data;
  const flowY = resizeMap({ data: fy, width: bw, height: bh }, W, H).data;
  const sx = W / curLuma.width;
  const sy = H / curLuma.height;
  const src = prevMatte.data;
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const px = Math.min(W - 1, Math.max(0, x + flowX[i]! * sx));
      const py = Math.min(H - 1, Math.max(0, y + flowY[i]! * sy));
      const ix = Math.floor(px);
      const iy = Math.floor(py);
      const jx = Math.min(W - 1, ix + 1);
      const jy = Math.min(H - 1, iy + 1);
      const tx = px - ix;
      const ty = py - iy;
      const top = src[iy * W + ix]! + (src[iy * W + jx]! - src[iy * W + ix]!) * tx;
      const bot = src[jy * W + ix]! + (src[jy * W + jx]! - src[jy * W + ix]!) * tx;
      out[i] = top + (bot - top) * ty;
    }
  }
  return { data: out, width: W, height: H };
}
