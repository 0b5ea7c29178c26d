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
 *   matte agrees with its colour (`trustOf`), and the filmed colour stays where it does not.
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
  return f.layout === 'rgba' ? { base: [0, 1, 2, 3], step: 4 } : { base: [0, n, 2 * n, 3 * n], step: 1 };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The side of the square tiles the narrow pass works in: only tiles near the band are filled. */
const TILE = 32;

/** Where the band is: its bounding box (x1, y1 exclusive) and which TILE-sized tiles hold band pixels. */
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
  for (let y = 0; y < f.height; y++) {
    const row = Math.floor(y / TILE) * tw;
    for (let x = 0; x < f.width; x++) {
      const a = f.data[acc.base[3] + (y * f.width + x) * acc.step]!;
      if (a < SOFT_BAND.min || a > SOFT_BAND.max) continue;
      tiles[row + Math.floor(x / TILE)] = 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
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
        for (let x = Math.max(0, tx - d); x <= Math.min(band.tw - 1, tx + d); x++) out[y * band.tw + x] = 1;
      }
    }
  }
  return out;
}

/** Calls `visit` with each pixel (x, y) of the marked tiles that lies inside `box`. */
function eachTilePixel(tiles: Uint8Array, tw: number, box: Box, visit: (x: number, y: number) => void): void {
  const th = tiles.length / tw;
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      if (!tiles[ty * tw + tx]) continue;
      const ys = Math.max(box.y0, ty * TILE);
      const ye = Math.min(box.y1, (ty + 1) * TILE);
      const xs = Math.max(box.x0, tx * TILE);
      const xe = Math.min(box.x1, (tx + 1) * TILE);
      for (let y = ys; y < ye; y++) for (let x = xs; x < xe; x++) visit(x, y);
    }
  }
}

/** Float scratch reused from frame to frame (a video's frames are one size): the narrow pass's maps. */
const scratch: Float32Array[] = [];
function maps(count: number, n: number): Float32Array[] {
  for (let i = 0; i < count; i++) if (!scratch[i] || scratch[i]!.length < n) scratch[i] = new Float32Array(n);
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
  const stride = Math.max(1, Math.floor(cell / 4));
  const reach = wide + 2 * cell;
  const x0 = Math.max(0, band.x0 - reach);
  const x1 = Math.min(f.width, band.x1 + reach);
  for (let y = Math.max(0, band.y0 - reach); y < Math.min(f.height, band.y1 + reach); y += stride) {
    const row = Math.floor(y / cell) * gw;
    for (let x = x0; x < x1; x += stride) {
      const p = y * f.width + x;
      const g = row + Math.floor(x / cell);
      const a = sideWeight(f.data[acc.base[3] + p * acc.step]! / 255);
      const b = sideWeight(1 - f.data[acc.base[3] + p * acc.step]! / 255);
      count[g]! += a + b;
      alpha[g]! += a;
      for (let c = 0; c < 3; c++) {
        const v = f.data[acc.base[c]! + p * acc.step]!;
        fa[c]![g]! += v * a;
        ba[c]![g]! += v * b;
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

/** Bilinear sample of a coarse map at pixel (x, y). */
function sample(c: Coarse, map: Float32Array, x: number, y: number): number {
  const gx = Math.min(c.gw - 1, Math.max(0, (x + 0.5) / c.cell - 0.5));
  const gy = Math.min(c.gh - 1, Math.max(0, (y + 0.5) / c.cell - 0.5));
  const i = Math.min(c.gw - 2, Math.floor(gx));
  const j = Math.min(c.gh - 2, Math.floor(gy));
  if (i < 0 || j < 0) return map[Math.round(gy) * c.gw + Math.round(gx)]!;
  const tx = gx - i;
  const ty = gy - j;
  const o = j * c.gw + i;
  const top = map[o]! * (1 - tx) + map[o + 1]! * tx;
  const bottom = map[o + c.gw]! * (1 - tx) + map[o + c.gw + 1]! * tx;
  return top * (1 - ty) + bottom * ty;
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
  // The narrow pass reads the wide pass's estimates up to `narrow` pixels beyond the band.
  const q = {
    x0: Math.max(0, band.x0 - narrow),
    y0: Math.max(0, band.y0 - narrow),
    x1: Math.min(f.width, band.x1 + narrow),
    y1: Math.min(f.height, band.y1 + narrow),
  };
  const qw = q.x1 - q.x0;
  const [alpha, sq, fa0, fa1, fa2, ba0, ba1, ba2] = maps(8, qw * (q.y1 - q.y0));
  const fa = [fa0!, fa1!, fa2!];
  const ba = [ba0!, ba1!, ba2!];
  // Only tiles within `narrow` of the band are read at band pixels; the rest may keep old values.
  eachTilePixel(grow(band, Math.ceil(narrow / TILE)), band.tw, q, (x, y) => {
    const p = y * f.width + x;
    const k = (y - q.y0) * qw + (x - q.x0);
    const a = f.data[acc.base[3] + p * acc.step]! / 255;
    alpha![k] = a;
    sq![k] = a * a;
    for (let c = 0; c < 3; c++) {
      const v = f.data[acc.base[c]! + p * acc.step]!;
      // Opaque: the colour as it is, no background; transparent: no weight; between: the wide pass's estimate.
      if (a >= 1) {
        fa[c]![k] = v;
        ba[c]![k] = 0;
        continue;
      }
      const b = sample(coarse, coarse.bg[c]!, x, y);
      fa[c]![k] = a <= 0 ? 0 : blend(sample(coarse, coarse.fg[c]!, x, y), b, v, a) * a;
      ba[c]![k] = b * (1 - a);
    }
  });
  narrowPass(f, acc, band, q, { alpha: alpha!, sq: sq!, fa, ba }, narrow);
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

/** One blur-fusion step: F = F̄ + α (I − α F̄ − (1 − α) B̄), clipped. */
const blend = (fMean: number, bMean: number, v: number, a: number) => clip(fMean + a * (v - a * fMean - (1 - a) * bMean));

/** The local side means of one band pixel, and its colour. */
interface Pixel {
  fm: number[];
  bm: number[];
  iv: number[];
}

/**
 * The two passes' means meet in the band: each pixel's estimate is blended with its filmed colour
 * by how far its matte can be trusted (`trustOf`, averaged over the neighbourhood), so a tier's
 * alpha error leaves the filmed colour rather than a wrong estimate.
 */
function narrowPass(
  f: MattedFrame,
  acc: Access,
  band: Band,
  q: Box,
  m: { alpha: Float32Array; sq: Float32Array; fa: Float32Array[]; ba: Float32Array[] },
  r: number,
): void {
  const qw = q.x1 - q.x0;
  const qh = q.y1 - q.y0;
  const n = qw * qh;
  const [mAlpha, mSq, mF0, mF1, mF2, mB0, mB1, mB2, trust, inBand, mTrust, mBand] = maps(20, n).slice(8);
  boxMean(m.alpha, qw, qh, r, mAlpha);
  boxMean(m.sq, qw, qh, r, mSq);
  const mF = [mF0!, mF1!, mF2!];
  const mB = [mB0!, mB1!, mB2!];
  m.fa.forEach((x, c) => boxMean(x, qw, qh, r, mF[c]));
  m.ba.forEach((x, c) => boxMean(x, qw, qh, r, mB[c]));
  const px: Pixel = { fm: [0, 0, 0], bm: [0, 0, 0], iv: [0, 0, 0] };
  const eachBandPixel = (visit: (p: number, k: number, a: number) => void) =>
    eachTilePixel(band.tiles, band.tw, band, (x, y) => {
      const p = y * f.width + x;
      const a8 = f.data[acc.base[3] + p * acc.step]!;
      if (a8 < SOFT_BAND.min || a8 > SOFT_BAND.max) return;
      const k = (y - q.y0) * qw + (x - q.x0);
      const wf = mAlpha![k]!;
      for (let c = 0; c < 3; c++) {
        px.fm[c] = mF[c]![k]! / (wf + EPS);
        px.bm[c] = mB[c]![k]! / (1 - wf + EPS);
        px.iv[c] = f.data[acc.base[c]! + p * acc.step]!;
      }
      visit(p, k, a8 / 255);
    });
  trust!.fill(0);
  inBand!.fill(0);
  eachBandPixel((_p, k, a) => {
    const spread = Math.sqrt(Math.max(0, mSq![k]! - mAlpha![k]! * mAlpha![k]!));
    trust![k] = trustOf(px, a) * ramp(spread, TRUST.spread[0], TRUST.spread[1]);
    inBand![k] = 1;
  });
  const rr = TRUST.regionRadius * r;
  boxMean(trust!, qw, qh, rr, mTrust);
  boxMean(inBand!, qw, qh, rr, mBand);
  eachBandPixel((p, k, a) => {
    const region = ramp(mTrust![k]! / (mBand![k]! + EPS), TRUST.region[0], TRUST.region[1]);
    const w = region * trust![k]!;
    if (w <= 0) return;
    for (let c = 0; c < 3; c++) {
      const v = px.iv[c]!;
      f.data[acc.base[c]! + p * acc.step] = Math.round(v + w * (unmix(px.bm[c]!, v, a) - v));
    }
  });
}

/** 0 at or below lo, 1 at or above hi, linear between. */
const ramp = (v: number, lo: number, hi: number) => (v <= lo ? 0 : v >= hi ? 1 : (v - lo) / (hi - lo));

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
  if (contrast <= 0) return 0;
  const implied = Math.min(1, Math.max(0, t / dd));
  let off = 0;
  for (let c = 0; c < 3; c++) {
    const e = iv[c]! - bm[c]! - implied * (fm[c]! - bm[c]!);
    off += e * e;
  }
  const onLine = 1 - ramp(Math.sqrt(off) / len, TRUST.offLine[0], TRUST.offLine[1]);
  const agrees = 1 - ramp(Math.abs(implied - a), TRUST.disagree[0], TRUST.disagree[1]);
  return contrast * onLine * agrees;
}
