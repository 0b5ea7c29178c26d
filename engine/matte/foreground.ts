import { boxMean } from './box';

/**
 * Foreground colour estimation ("decontaminate colours"): where the matte is soft, a pixel's
 * colour is the subject's mixed with the old background's, I = αF + (1 − α)B, and laid over a new
 * background it keeps a rim of the old one. This recovers F there in three steps:
 * - the local means of both sides' colours, F̄ and B̄, by blur fusion (Forte and Pitié,
 *   "Approximate fast foreground colour estimation", ICIP 2021): a wide pass over cells a few
 *   pixels across takes them from the clear and the opaque pixels around the edge, and a narrow
 *   pass refines them from the wide pass's estimates F = F̄ + α (I − α F̄ − (1 − α) B̄);
 * - each band pixel unmixed from the background's mean, F = (I − (1 − α) B̄) / α (exact with the
 *   true alpha but for the background's texture; blur fusion's own last step stops short, at
 *   0.26–0.44 of passthrough's error against 0.19–0.28 in scripts/bench-edges.ts);
 * - a tier's matte is wrong in places (too wide, or soft over the subject itself), and there any
 *   estimate moves the colour the wrong way; so each pixel's estimate is weighed by how far its
 *   matte agrees with its colour (`trustOf`), and the filmed colour stays where it does not; where
 *   the colour is surely the old background under a matte that calls it subject (a too-wide
 *   matte's rim), it takes the subject's local colour instead.
 * Every step but `trustOf`'s distances is affine in the colour, so RGB and Y′CbCr give nearly the
 * same result.
 *
 * Cost stays in the soft band: the wide pass runs on cells a few pixels across, the narrow pass on
 * the band's bounding box, and only the band's pixels are written.
 */

/** Interleaved RGBA (canvas ImageData) or four planes with alpha last (ffmpeg yuva444p, gbrap). */
export type FrameLayout = 'rgba' | 'planar';

/** One frame: three colour channels and its alpha, 8 bits each. */
export interface MattedFrame {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  layout: FrameLayout;
}

/**
 * The soft band, in 8-bit alpha: what is written. Below it a pixel is all but invisible, above it
 * the old background is under 1.2 % of its colour.
 */
export const SOFT_BAND = { min: 3, max: 252 } as const;

/** Pass radii for a frame: the wide one 12 % of the shorter side, the narrow one 1/14 of that. */
export function foregroundRadii(width: number, height: number): { wide: number; narrow: number } {
  const wide = Math.max(4, Math.round(0.12 * Math.min(width, height)));
  return { wide, narrow: Math.max(2, Math.round(wide / 14)) };
}

const EPS = 1e-5;

/** Where channel c (0..2 colour, 3 alpha) of pixel p is: base[c] + p * step. */
interface Access {
  base: [number, number, number, number];
  step: number;
}

function access(f: MattedFrame): Access {
  const n = f.width * f.height;
  return f.layout === 'rgba'
    ? { base: [0, 1, 2, 3], step: 4 }
    : { base: [0, n, 2 * n, 3 * n], step: 1 };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Both passes' sums read every SUM_STEP-th pixel of each row and column (the narrow pass's only
 * where its cells are larger than a pixel): the means over their windows hardly change, the cost
 * drops by SUM_STEP² (bench:edges, docs/outputs.md "Edge colours").
 */
const SUM_STEP = 2;

/** The side of the square tiles the narrow pass works in: only tiles near the band are filled. */
const TILE = 32;

/**
 * Where the band is: its bounding box (x1, y1 exclusive) and which TILE-sized tiles hold band
 * pixels.
 */
interface Band extends Box {
  tw: number;
  tiles: Uint8Array;
}

function findBand(f: MattedFrame, acc: Access): Band | null {
  let x0 = f.width;
  let y0 = f.height;
  let x1 = -1;
  let y1 = -1;
  const tw = Math.ceil(f.width / TILE);
  const tiles = new Uint8Array(tw * Math.ceil(f.height / TILE));
  const data = f.data;
  for (let y = 0; y < f.height; y++) {
    const row = Math.floor(y / TILE) * tw;
    let i = acc.base[3] + y * f.width * acc.step;
    for (let x = 0; x < f.width; x++, i += acc.step) {
      const a = data[i]!;
      if (a < SOFT_BAND.min || a > SOFT_BAND.max) continue;
      tiles[row + ((x / TILE) | 0)] = 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  return x1 < 0 ? null : { x0, y0, x1: x1 + 1, y1: y1 + 1, tw, tiles };
}

/** The band's tiles grown by `d` tiles each way. */
function grow(band: Band, d: number): Uint8Array {
  const th = band.tiles.length / band.tw;
  const out = new Uint8Array(band.tiles.length);
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < band.tw; tx++) {
      if (!band.tiles[ty * band.tw + tx]) continue;
      for (let y = Math.max(0, ty - d); y <= Math.min(th - 1, ty + d); y++) {
        for (let x = Math.max(0, tx - d); x <= Math.min(band.tw - 1, tx + d); x++)
          out[y * band.tw + x] = 1;
      }
    }
  }
  return out;
}

/**
 * Calls `visit` with each row span [xs, xe) of row y of the marked tiles that lies inside `box`.
 */
function eachTileSpan(
  tiles: Uint8Array,
  tw: number,
  box: Box,
  visit: (y: number, xs: number, xe: number) => void,
): void {
  const th = tiles.length / tw;
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      if (!tiles[ty * tw + tx]) continue;
      const xs = Math.max(box.x0, tx * TILE);
      const xe = Math.min(box.x1, (tx + 1) * TILE);
      for (let y = Math.max(box.y0, ty * TILE); y < Math.min(box.y1, (ty + 1) * TILE); y++)
        visit(y, xs, xe);
    }
  }
}

/** The band pixels' list, reused from frame to frame like `scratch`. */
let bandScratch = {
  pixels: new Int32Array(0),
  cells: new Int32Array(0),
  trusts: new Float32Array(0),
  backs: new Float32Array(0),
  paints: new Float32Array(0),
  fores: new Float32Array(0),
};

/**
 * Float scratch reused from frame to frame (a video's frames are one size): the narrow pass's maps.
 */
const scratch: Float32Array[] = [];
function maps(count: number, n: number): Float32Array[] {
  for (let i = 0; i < count; i++)
    if (!scratch[i] || scratch[i]!.length < n) scratch[i] = new Float32Array(n);
  return scratch.slice(0, count).map((m) => m.subarray(0, n));
}

/** The wide pass's side colours on a coarse grid: F̄ and B̄ per cell, three channels each. */
interface Coarse {
  cell: number;
  gw: number;
  gh: number;
  fg: Float32Array[];
  bg: Float32Array[];
}

/**
 * The wide pass's statistics on cells of wide/8 pixels, from every `stride`-th pixel of each row
 * and column (the means over a wide window hardly change; the cost drops by stride²) and only
 * within reach of the band.
 */
function coarsePass(f: MattedFrame, acc: Access, wide: number, band: Band): Coarse {
  const cell = Math.max(1, Math.round(wide / 8));
  const gw = Math.ceil(f.width / cell);
  const gh = Math.ceil(f.height / cell);
  const cells = gw * gh;
  const count = new Float32Array(cells);
  const alpha = new Float32Array(cells);
  const fa = [0, 1, 2].map(() => new Float32Array(cells));
  const ba = [0, 1, 2].map(() => new Float32Array(cells));
  const stride = Math.max(SUM_STEP, Math.floor(cell / 4));
  const reach = wide + 2 * cell;
  const x0 = Math.max(0, band.x0 - reach);
  const x1 = Math.min(f.width, band.x1 + reach);
  const [ab, c0, c1, c2] = [acc.base[3], ...acc.base];
  const [f0, f1, f2] = fa as [Float32Array, Float32Array, Float32Array];
  const [b0, b1, b2] = ba as [Float32Array, Float32Array, Float32Array];
  const step = acc.step;
  const data = f.data;
  for (let y = Math.max(0, band.y0 - reach); y < Math.min(f.height, band.y1 + reach); y += stride) {
    const row = Math.floor(y / cell) * gw;
    for (let x = x0; x < x1; x += stride) {
      const p = (y * f.width + x) * step;
      const g = row + Math.floor(x / cell);
      const a8 = data[ab + p]!;
      const a = SUBJECT_WEIGHT[a8]!;
      const b = BACKGROUND_WEIGHT[a8]!;
      count[g]! += a + b;
      // Most pixels are clear or opaque: one side's sums would only add zeros.
      if (a > 0) {
        alpha[g]! += a;
        f0[g]! += data[c0 + p]! * a;
        f1[g]! += data[c1 + p]! * a;
        f2[g]! += data[c2 + p]! * a;
      }
      if (b > 0) {
        b0[g]! += data[c0 + p]! * b;
        b1[g]! += data[c1 + p]! * b;
        b2[g]! += data[c2 + p]! * b;
      }
    }
  }
  const r = Math.max(1, Math.round(wide / cell));
  const mCount = boxMean(count, gw, gh, r);
  const mAlpha = boxMean(alpha, gw, gh, r);
  const side = (sums: Float32Array[], weight: (g: number) => number) =>
    sums.map((s) => {
      const m = boxMean(s, gw, gh, r);
      for (let g = 0; g < cells; g++) m[g] = m[g]! / (weight(g) + EPS);
      return m;
    });
  return {
    cell,
    gw,
    gh,
    fg: side(fa, (g) => mAlpha[g]!),
    bg: side(ba, (g) => mCount[g]! - mAlpha[g]!),
  };
}

/**
 * How much a pixel of alpha `a` tells of the subject's colour in the wide pass (and 1 − a of the
 * background's): a⁸, so the sides' means come from the clear and the opaque pixels wherever
 * there are some, not from the soft band's mixtures (with a plain α weight, the means already
 * hold part of the other side and the unmixing below stops short; bench:edges, known alpha over
 * colours: 0.26–0.44 of passthrough with α, 0.19–0.28 with α⁸).
 */
function sideWeight(a: number): number {
  const a2 = a * a;
  const a4 = a2 * a2;
  return a4 * a4;
}

/** sideWeight of each 8-bit alpha for the subject's side, and for the background's. */
const SUBJECT_WEIGHT = Float64Array.from({ length: 256 }, (_, i) => sideWeight(i / 255));
const BACKGROUND_WEIGHT = Float64Array.from({ length: 256 }, (_, i) => sideWeight(1 - i / 255));

/**
 * Where a pixel reads a grid's maps: the corner cell `o` of the four around it and the weights
 * between their centres; `one`: the cell `o` alone (one-pixel cells, or a grid one cell wide or
 * high). Found once per pixel or cell, read from each map (a band pixel reads seven, a cell six).
 */
interface Tap {
  o: number;
  tx: number;
  ty: number;
  gw: number;
  one: boolean;
}
const newTap = (): Tap => ({ o: 0, tx: 0, ty: 0, gw: 1, one: true });

/**
 * The tap between the centres of a gw × gh grid of `cell`-px cells, at pixel (x, y) from the grid's
 * corner (written into `t`).
 */
function tapOf(gw: number, gh: number, cell: number, x: number, y: number, t: Tap): Tap {
  t.gw = gw;
  if (cell === 1) {
    t.o = y * gw + x;
    t.one = true;
    return t;
  }
  const gx = Math.min(gw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
  const gy = Math.min(gh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
  const i = Math.min(gw - 2, Math.floor(gx));
  const j = Math.min(gh - 2, Math.floor(gy));
  t.one = i < 0 || j < 0;
  if (t.one) {
    t.o = Math.round(gy) * gw + Math.round(gx);
    return t;
  }
  t.tx = gx - i;
  t.ty = gy - j;
  t.o = j * gw + i;
  return t;
}

function read(map: Float32Array, t: Tap): number {
  const o = t.o;
  if (t.one) return map[o]!;
  const top = map[o]! * (1 - t.tx) + map[o + 1]! * t.tx;
  const bottom = map[o + t.gw]! * (1 - t.tx) + map[o + t.gw + 1]! * t.tx;
  return top * (1 - t.ty) + bottom * t.ty;
}

const clip = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/**
 * Replaces the colour of the frame's soft-band pixels with the estimated foreground colour, in
 * place. Opaque and transparent pixels keep theirs.
 */
export function estimateForeground(f: MattedFrame): void {
  const acc = access(f);
  const band = findBand(f, acc);
  if (!band) return;
  const { wide, narrow } = foregroundRadii(f.width, f.height);
  const coarse = coarsePass(f, acc, wide, band);
  narrowPass(f, acc, band, coarse, narrow);
}

/** The most an unmixing multiplies the filmed colour's difference from the background by. */
const MAX_GAIN = 4;

/**
 * The subject's colour with the background's local mean taken out, F = (I − (1 − α) B̄) / α,
 * the gain capped (at low alpha the background's texture would be amplified), clipped.
 */
const unmix = (bMean: number, v: number, a: number) => {
  const g = Math.max(a, 1 / MAX_GAIN);
  return clip((v - (1 - g) * bMean) / g);
};

/** The local side means of one band pixel, and its colour. */
interface Pixel {
  fm: number[];
  bm: number[];
  iv: number[];
}

/**
 * The narrow pass's sums per cell of `s`² pixels, over the band's box grown by the radius: Σα,
 * Σα², the pixel count, and the α-weighted sums of the wide pass's subject estimates and the
 * (1 − α)-weighted background means. Per pixel α·F_w = α F̄ + α² I − α³ F̄ − α²(1 − α) B̄ with F̄
 * and B̄ the wide pass's means, which hardly change within a cell: so the cell needs only Σα³
 * and Σα²I besides, and F̄, B̄ once at its centre.
 */
interface Cells {
  s: number;
  x0: number;
  y0: number;
  gw: number;
  gh: number;
  a1: Float32Array;
  a2: Float32Array;
  count: Float32Array;
  fs: Float32Array[];
  bs: Float32Array[];
}

function cellSums(
  f: MattedFrame,
  acc: Access,
  band: Band,
  coarse: Coarse,
  r: number,
  s: number,
): Cells {
  const x0 = Math.max(0, band.x0 - r);
  const y0 = Math.max(0, band.y0 - r);
  const gw = Math.ceil((Math.min(f.width, band.x1 + r) - x0) / s);
  const gh = Math.ceil((Math.min(f.height, band.y1 + r) - y0) / s);
  const n = gw * gh;
  const [a1, a2, a3, count, i0, i1, i2, f0, f1, f2, b0, b1, b2] = maps(13, n);
  for (const m of [a1, a2, a3, count, i0, i1, i2]) m!.fill(0);
  const ai = [i0!, i1!, i2!];
  // Only tiles within `r` of the band are read at band pixels; cells elsewhere stay empty.
  const box = { x0, y0, x1: Math.min(f.width, x0 + gw * s), y1: Math.min(f.height, y0 + gh * s) };
  const [ab, c0, c1, c2] = [acc.base[3], ...acc.base];
  const step = acc.step;
  const data = f.data;
  // Cells of one pixel read every pixel; larger ones every SUM_STEP-th of each row and column.
  const k = s > 1 ? SUM_STEP : 1;
  eachTileSpan(grow(band, Math.ceil(r / TILE)), band.tw, box, (y, xs, xe) => {
    if (y % k) return;
    const row = Math.floor((y - y0) / s) * gw;
    for (let x = xs + ((k - (xs % k)) % k); x < xe; x += k) {
      const p = (y * f.width + x) * step;
      const g = row + Math.floor((x - x0) / s);
      const a8 = data[ab + p]!;
      count![g] = count![g]! + 1;
      // A clear pixel adds nothing else.
      if (a8 === 0) continue;
      const a = a8 / 255;
      const aa = a * a;
      a1![g] = a1![g]! + a;
      a2![g] = a2![g]! + aa;
      a3![g] = a3![g]! + aa * a;
      i0![g] = i0![g]! + aa * data[c0 + p]!;
      i1![g] = i1![g]! + aa * data[c1 + p]!;
      i2![g] = i2![g]! + aa * data[c2 + p]!;
    }
  });
  const fs = [f0!, f1!, f2!];
  const bs = [b0!, b1!, b2!];
  const tap = newTap();
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      const g = gy * gw + gx;
      if (!count![g]) {
        for (let c = 0; c < 3; c++) fs[c]![g] = bs[c]![g] = 0;
        continue;
      }
      const x = Math.min(f.width - 1, x0 + gx * s + (s >> 1));
      const y = Math.min(f.height - 1, y0 + gy * s + (s >> 1));
      tapOf(coarse.gw, coarse.gh, coarse.cell, x, y, tap);
      for (let c = 0; c < 3; c++) {
        const fm = read(coarse.fg[c]!, tap);
        const bm = read(coarse.bg[c]!, tap);
        fs[c]![g] = fm * (a1![g]! - a3![g]!) + ai[c]![g]! - bm * (a2![g]! - a3![g]!);
        bs[c]![g] = bm * (count![g] - a1![g]!);
      }
    }
  }
  return { s, x0, y0, gw, gh, a1: a1!, a2: a2!, count: count!, fs, bs };
}

/**
 * The narrow pass, on cells of about a third of its radius (one pixel at 480p, three at 1080p:
 * the means over the radius hardly change, the cost drops by the cell's area). The means meet in
 * the band: each pixel is unmixed and blended with its filmed colour by how far its matte can
 * be trusted (`trustOf`, averaged over the neighbourhood), so a tier's alpha error leaves the
 * filmed colour rather than a wrong estimate.
 */
function narrowPass(f: MattedFrame, acc: Access, band: Band, coarse: Coarse, r: number): void {
  const s = Math.max(1, Math.floor(r / 2));
  const cs = cellSums(f, acc, band, coarse, r, s);
  const { gw, gh } = cs;
  const n = gw * gh;
  const rc = Math.max(1, Math.round(r / s));
  const [mA1, mA2, mC, mf0, mf1, mf2, mb0, mb1, mb2, trustSum, bandCount, mT, mN] = maps(
    26,
    n,
  ).slice(13);
  boxMean(cs.a1, gw, gh, rc, mA1);
  boxMean(cs.a2, gw, gh, rc, mA2);
  boxMean(cs.count, gw, gh, rc, mC);
  const mF = [mf0!, mf1!, mf2!];
  const mB = [mb0!, mb1!, mb2!];
  cs.fs.forEach((m, c) => boxMean(m, gw, gh, rc, mF[c]));
  cs.bs.forEach((m, c) => boxMean(m, gw, gh, rc, mB[c]));
  // Per cell: the side means, the mean alpha and its spread.
  for (let g = 0; g < n; g++) {
    const cnt = mC![g]! + EPS;
    const wf = mA1![g]!;
    for (let c = 0; c < 3; c++) {
      mF[c]![g] = mF[c]![g]! / (wf + EPS);
      mB[c]![g] = mB[c]![g]! / (cnt - wf + EPS);
    }
    const mean = wf / cnt;
    mA2![g] = Math.sqrt(Math.max(0, mA2![g]! / cnt - mean * mean));
  }
  // The band's pixels with their estimate's trust; the trust summed per cell for the region.
  const px: Pixel = { fm: [0, 0, 0], bm: [0, 0, 0], iv: [0, 0, 0] };
  const tap = newTap();
  const load = (x: number, y: number, p: number) => {
    tapOf(gw, gh, s, x - cs.x0, y - cs.y0, tap);
    for (let c = 0; c < 3; c++) {
      px.fm[c] = read(mF[c]!, tap);
      px.bm[c] = read(mB[c]!, tap);
      px.iv[c] = f.data[acc.base[c]! + p * acc.step]!;
    }
  };
  // Each band pixel once: its trust, and what the final step needs (index, cell, background mean).
  const most = band.tiles.reduce((t, v) => t + v, 0) * TILE * TILE;
  if (bandScratch.pixels.length < most) {
    bandScratch = {
      pixels: new Int32Array(most),
      cells: new Int32Array(most),
      trusts: new Float32Array(most),
      backs: new Float32Array(3 * most),
      paints: new Float32Array(most),
      fores: new Float32Array(3 * most),
    };
  }
  const { pixels, cells, trusts, backs, paints, fores } = bandScratch;
  let count = 0;
  trustSum!.fill(0);
  bandCount!.fill(0);
  eachTileSpan(band.tiles, band.tw, band, (y, xs, xe) => {
    for (let x = xs; x < xe; x++) {
      const p = y * f.width + x;
      const a8 = f.data[acc.base[3] + p * acc.step]!;
      if (a8 < SOFT_BAND.min || a8 > SOFT_BAND.max) continue;
      load(x, y, p);
      const t = trustOf(px, a8 / 255) * ramp(read(mA2!, tap), TRUST.spread[0], TRUST.spread[1]);
      const g = Math.floor((y - cs.y0) / s) * gw + Math.floor((x - cs.x0) / s);
      trustSum![g] = trustSum![g]! + t;
      bandCount![g] = bandCount![g]! + 1;
      pixels[count] = p;
      cells[count] = g;
      trusts[count] = t;
      for (let c = 0; c < 3; c++) backs[3 * count + c] = px.bm[c]!;
      paints[count] = paint.weight;
      for (let c = 0; c < 3; c++) fores[3 * count + c] = px.fm[c]!;
      count++;
    }
  });
  const rr = TRUST.regionRadius * rc;
  boxMean(trustSum!, gw, gh, rr, mT);
  boxMean(bandCount!, gw, gh, rr, mN);
  for (let i = 0; i < count; i++) {
    const p = pixels[i]!;
    const g = cells[i]!;
    const w = ramp(mT![g]! / (mN![g]! + EPS), TRUST.region[0], TRUST.region[1]) * trusts[i]!;
    const pw = paints[i]!;
    if (pw > 0) {
      for (let c = 0; c < 3; c++) {
        const at = acc.base[c]! + p * acc.step;
        f.data[at] = Math.round(f.data[at]! + pw * (fores[3 * i + c]! - f.data[at]!));
      }
      continue;
    }
    if (w <= 0) continue;
    const a = f.data[acc.base[3] + p * acc.step]! / 255;
    for (let c = 0; c < 3; c++) {
      const at = acc.base[c]! + p * acc.step;
      const v = f.data[at]!;
      f.data[at] = Math.round(v + w * (unmix(backs[3 * i + c]!, v, a) - v));
    }
  }
}

/** 0 at or below lo, 1 at or above hi, linear between. */
const ramp = (v: number, lo: number, hi: number) =>
  v <= lo ? 0 : v >= hi ? 1 : (v - lo) / (hi - lo);

/**
 * How far a band pixel's estimate is trusted, from bench:edges with the tiers' own mattes
 * (docs/outputs.md "Edge colours"): the side colours must differ (`contrast`, 8-bit distance;
 * alike, there is little to take out and the line below is noise), the pixel must lie near the
 * line between them (`offLine`, its distance from it over the line's length: a colour the two sides
 * do not mix to is neither's), and the alpha its colour implies along that line must agree with
 * the matte's (`disagree`: a too-wide matte puts the old background at high alpha, a too-low one
 * makes the subject itself soft; the estimate there moves the filmed colour the wrong way).
 * `region` then asks the same of the neighbourhood (`regionRadius` narrow radii): a matte wrong
 * over an area agrees with the colour at some pixels only by chance.
 */
const TRUST = {
  contrast: [16, 48],
  offLine: [0.2, 0.5],
  disagree: [0.15, 0.4],
  spread: [0.05, 0.15],
  paint: [0.4, 0.7],
  region: [0.4, 0.8],
  regionRadius: 3,
} as const;

function trustOf({ fm, bm, iv }: Pixel, a: number): number {
  let dd = 0;
  let t = 0;
  for (let c = 0; c < 3; c++) {
    const d = fm[c]! - bm[c]!;
    dd += d * d;
    t += (iv[c]! - bm[c]!) * d;
  }
  const len = Math.sqrt(dd);
  const contrast = ramp(len, TRUST.contrast[0], TRUST.contrast[1]);
  paint.weight = 0;
  if (contrast <= 0) return 0;
  const implied = Math.min(1, Math.max(0, t / dd));
  let off = 0;
  for (let c = 0; c < 3; c++) {
    const e = iv[c]! - bm[c]! - implied * (fm[c]! - bm[c]!);
    off += e * e;
  }
  const onLine = 1 - ramp(Math.sqrt(off) / len, TRUST.offLine[0], TRUST.offLine[1]);
  const agrees = 1 - ramp(Math.abs(implied - a), TRUST.disagree[0], TRUST.disagree[1]);
  paint.weight = contrast * onLine * ramp(a - implied, TRUST.paint[0], TRUST.paint[1]);
  return contrast * onLine * agrees;
}

/**
 * Set by `trustOf`: how surely the pixel is the old background where the matte says it is mostly
 * subject (its colour's alpha `paint` below the matte's): a too-wide matte's rim. Unmixing cannot
 * take the background out of it (there is hardly any subject in it to keep), so it takes the
 * subject's local colour F̄ instead, and the rim shows the subject's colour rather than the old
 * background's (bench:edges, service-human's own matte over magenta: 1.00 → 0.81 of passthrough).
 */
const paint = { weight: 0 };
