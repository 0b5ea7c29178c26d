/**
 * Pixel spaces. Branded so a model-resolution map cannot be passed where a frame-resolution
 * one is expected without saying so.
 */
export interface RgbaFrame {
  /** RGBA, 4 bytes per pixel, row-major. */
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
}

/** A single-channel float map (probabilities or luma in 0..1). */
export interface FloatMap {
  data: Float32Array;
  width: number;
  height: number;
}

/** Alpha at frame resolution: 0 = background, 255 = subject. */
export type Alpha = Uint8Array & { readonly __alpha: unique symbol };

interface AxisTaps {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  maxTaps: number;
}

/**
 * Per-output-sample source taps along one axis: exact area averaging when shrinking (no
 * aliasing from 1080p down to a model's 256 px), bilinear with half-pixel centres when growing.
 */
function axisTaps(src: number, dst: number): AxisTaps {
  const scale = src / dst;
  const maxTaps = scale > 1 ? Math.ceil(scale) + 2 : 2;
  const start = new Int32Array(dst);
  const count = new Int32Array(dst);
  const weights = new Float32Array(dst * maxTaps);
  for (let i = 0; i < dst; i++) {
    if (scale > 1) {
      const a = i * scale;
      const b = a + scale;
      const s = Math.floor(a);
      const e = Math.min(src, Math.ceil(b));
      start[i] = s;
      count[i] = e - s;
      for (let k = s; k < e; k++)
        weights[i * maxTaps + (k - s)] = (Math.min(b, k + 1) - Math.max(a, k)) / scale;
    } else {
      const c = Math.min(src - 1, Math.max(0, (i + 0.5) * scale - 0.5));
      const s = Math.floor(c);
      const f = c - s;
      start[i] = s;
      count[i] = s + 1 < src ? 2 : 1;
      weights[i * maxTaps] = count[i] === 2 ? 1 - f : 1;
      if (count[i] === 2) weights[i * maxTaps + 1] = f;
    }
  }
  return { start, count, weights, maxTaps };
}

const tapCache = new Map<string, AxisTaps>();
function cachedTaps(src: number, dst: number): AxisTaps {
  const key = `${src}>${dst}`;
  let t = tapCache.get(key);
  if (!t) {
    if (tapCache.size > 64) tapCache.clear();
    t = axisTaps(src, dst);
    tapCache.set(key, t);
  }
  return t;
}

/**
 * Resamples an RGBA frame to w x h and returns `channels` float planes (R, G, B in 0..255, then
 * luma 0..1 when asked for 4). Separable: rows first, then columns.
 */
export function resampleRgb(frame: RgbaFrame, w: number, h: number): Float32Array[] {
  const { data, width: W, height: H } = frame;
  if (W === w && H === h) {
    const planes = [
      new Float32Array(w * h),
      new Float32Array(w * h),
      new Float32Array(w * h),
    ] as const;
    for (let i = 0, p = 0; i < w * h; i++, p += 4) {
      planes[0][i] = data[p]!;
      planes[1][i] = data[p + 1]!;
      planes[2][i] = data[p + 2]!;
    }
    return [...planes];
  }
  const tx = cachedTaps(W, w);
  const ty = cachedTaps(H, h);
  const tmp = [new Float32Array(w * H), new Float32Array(w * H), new Float32Array(w * H)];
  const [tr, tg, tb] = tmp as [Float32Array, Float32Array, Float32Array];
  for (let y = 0; y < H; y++) {
    const row = y * W * 4;
    for (let x = 0; x < w; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const s = tx.start[x]!;
      const n = tx.count[x]!;
      const wo = x * tx.maxTaps;
      for (let k = 0; k < n; k++) {
        const wt = tx.weights[wo + k]!;
        const p = row + (s + k) * 4;
        r += data[p]! * wt;
        g += data[p + 1]! * wt;
        b += data[p + 2]! * wt;
      }
      const o = y * w + x;
      tr[o] = r;
      tg[o] = g;
      tb[o] = b;
    }
  }
  const out = [new Float32Array(w * h), new Float32Array(w * h), new Float32Array(w * h)];
  for (let c = 0; c < 3; c++) {
    const src = tmp[c]!;
    const dst = out[c]!;
    for (let y = 0; y < h; y++) {
      const s = ty.start[y]!;
      const n = ty.count[y]!;
      const wo = y * ty.maxTaps;
      for (let x = 0; x < w; x++) {
        let v = 0;
        for (let k = 0; k < n; k++) v += src[(s + k) * w + x]! * ty.weights[wo + k]!;
        dst[y * w + x] = v;
      }
    }
  }
  return out;
}

/** One byte per pixel, row-major: a frame's luma at full resolution. */
export interface GrayFrame {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Full-resolution 8-bit luma (BT.601 weights): a quarter of the frame's bytes. */
export function grayOf(frame: RgbaFrame): GrayFrame {
  const { data, width, height } = frame;
  const out = new Uint8Array(width * height);
  for (let i = 0, d = 0; i < out.length; i++, d += 4)
    out[i] = 0.299 * data[d]! + 0.587 * data[d + 1]! + 0.114 * data[d + 2]! + 0.5;
  return { data: out, width, height };
}

/** Luma in 0..1 from resampled R, G, B planes (0..255). */
export function lumaOf(planes: Float32Array[], width: number, height: number): FloatMap {
  const [r, g, b] = planes as [Float32Array, Float32Array, Float32Array];
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++)
    data[i] = (0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!) / 255;
  return { data, width, height };
}

/** Bilinear (half-pixel centres) resize of a float map. */
export function resizeMap(map: FloatMap, w: number, h: number): FloatMap {
  if (map.width === w && map.height === h) return map;
  const tx = cachedTaps(map.width, w);
  const ty = cachedTaps(map.height, h);
  const tmp = new Float32Array(w * map.height);
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let k = 0; k < tx.count[x]!; k++)
        v += map.data[y * map.width + tx.start[x]! + k]! * tx.weights[x * tx.maxTaps + k]!;
      tmp[y * w + x] = v;
    }
  }
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let k = 0; k < ty.count[y]!; k++)
        v += tmp[(ty.start[y]! + k) * w + x]! * ty.weights[y * ty.maxTaps + k]!;
      data[y * w + x] = v;
    }
  }
  return { data, width: w, height: h };
}

/** Scales (width, height) so the long side is at most `side`, keeping the aspect ratio. */
export function fitLongSide(width: number, height: number, side: number): [number, number] {
  const s = Math.min(1, side / Math.max(width, height));
  return [Math.max(1, Math.round(width * s)), Math.max(1, Math.round(height * s))];
}

/**
 * The part of `map` inside the box [x0, y0, x1, y1] (pixels, may reach outside: edges are
 * clamped) resampled bilinearly to w x h.
 */
export function cropResize(
  map: FloatMap,
  box: readonly [number, number, number, number],
  w: number,
  h: number,
): FloatMap {
  const { data: src, width: W, height: H } = map;
  const sx = (box[2] - box[0]) / w;
  const sy = (box[3] - box[1]) / h;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(H - 1, Math.max(0, box[1] + (y + 0.5) * sy - 0.5));
    const y0 = fy | 0;
    const y1 = Math.min(H - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(W - 1, Math.max(0, box[0] + (x + 0.5) * sx - 0.5));
      const x0 = fx | 0;
      const x1 = Math.min(W - 1, x0 + 1);
      const tx = fx - x0;
      const top = src[y0 * W + x0]! + (src[y0 * W + x1]! - src[y0 * W + x0]!) * tx;
      const bot = src[y1 * W + x0]! + (src[y1 * W + x1]! - src[y1 * W + x0]!) * tx;
      out[y * w + x] = top + (bot - top) * ty;
    }
  }
  return { data: out, width: w, height: h };
}
