import { stillFlow, type FlowField } from './flow';
import { fitLongSide, resizeMap, type FloatMap } from './image';

/** Levels per channel: 16³ colours, fine enough to tell bark from skin, coarse enough to fill. */
const LEVELS = 16;
const COLOURS = LEVELS * LEVELS * LEVELS;
/**
 * Cells along the long side of the working grid; each cell's statistics cover it and its 8
 * neighbours.
 */
const CELLS = 16;
/** Pixels the key's matte is this sure of (p ≤ 0.2 or ≥ 0.8) teach the model. */
const SURE = 0.2;
/**
 * A cell whose neighbourhood holds fewer of a colour's confident pixels than this has barely seen
 * it.
 */
const SEEN = 16;

/**
 * Local colour statistics of a keyframe: for each cell of the working grid, how many pixels of
 * each quantised colour were subject and how many background in the cell and around it. A frame
 * between keys looks its pixels' colours up in the cell they came from (along the flow to the
 * key), which tells, from the frame itself, where a matte carried along the flow covers
 * background it has uncovered since (bark between arm and body) or misses subject.
 */
export interface ColourModel {
  subject: Uint16Array;
  background: Uint16Array;
  cols: number;
  rows: number;
  cell: number;
}

/** Each pixel's quantised colour from R, G, B planes (0..255). */
export function quantiseColours(planes: Float32Array[]): Uint16Array {
  const [r, g, b] = planes as [Float32Array, Float32Array, Float32Array];
  const out = new Uint16Array(r.length);
  // Resampling may overshoot 0..255 a little.
  const q = (v: number) => (v <= 0 ? 0 : v >= 255 ? LEVELS - 1 : ((v * LEVELS) / 256) | 0);
  for (let i = 0; i < out.length; i++) out[i] = (q(r[i]!) * LEVELS + q(g[i]!)) * LEVELS + q(b[i]!);
  return out;
}

/** `sure`: pixels with p ≤ sure or ≥ 1 − sure teach it. */
export function buildColourModel(colours: Uint16Array, prob: FloatMap, sure = SURE): ColourModel {
  const { width: W, height: H, data: p } = prob;
  const cell = Math.max(1, Math.ceil(Math.max(W, H) / CELLS));
  const cols = Math.ceil(W / cell);
  const rows = Math.ceil(H / cell);
  const subject = new Uint16Array(cols * rows * COLOURS);
  const background = new Uint16Array(cols * rows * COLOURS);
  for (let y = 0; y < H; y++) {
    const cy = Math.floor(y / cell);
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const v = p[i]!;
      if (v > sure && v < 1 - sure) continue;
      const counts = v >= 1 - sure ? subject : background;
      const c = colours[i]!;
      const cx = Math.floor(x / cell);
      for (let ny = Math.max(0, cy - 1); ny <= Math.min(rows - 1, cy + 1); ny++) {
        for (let nx = Math.max(0, cx - 1); nx <= Math.min(cols - 1, cx + 1); nx++) {
          const at = (ny * cols + nx) * COLOURS + c;
          if (counts[at]! < 0xffff) counts[at] = counts[at]! + 1;
        }
      }
    }
  }
  return { subject, background, cols, rows, cell };
}

/**
 * P(subject | colour) for each pixel of a frame at the working resolution, from a key's model:
 * each pixel reads the statistics of the key's cell it came from along `flow` (frame → key).
 * A colour the key barely showed near there also reads the cells around that one (5×5 cells
 * in all) and takes their answer when it says subject more: background does not move, so
 * background a frame uncovers has colours the key showed right there, while a part of the
 * subject can move farther between keys than the flow follows (a kicked ball, a swung arm, a
 * jumping dog) and shows colours the key had nearby. A colour seen nowhere around gives 0.5,
 * no opinion.
 */
export function colourPosterior(
  model: ColourModel,
  colours: Uint16Array,
  W: number,
  H: number,
  flow: FlowField,
): Float32Array {
  const { subject, background, cols, rows, cell } = model;
  const { width: fw, height: fh, u, v } = flow;
  const kx = W / fw;
  const ky = H / fh;
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const fy = Math.min(fh - 1, Math.floor(y / ky)) * fw;
    for (let x = 0; x < W; x++) {
      const f = fy + Math.min(fw - 1, Math.floor(x / kx));
      const sx = Math.min(cols - 1, Math.max(0, Math.floor((x + u[f]! * kx) / cell)));
      const sy = Math.min(rows - 1, Math.max(0, Math.floor((y + v[f]! * ky) / cell)));
      const c = colours[y * W + x]!;
      const at = (sy * cols + sx) * COLOURS + c;
      const s = subject[at]!;
      const b = background[at]!;
      let q = (s + 0.5) / (s + b + 1);
      if (s + b < SEEN) {
        let ws = 0;
        let wb = 0;
        for (let ny = Math.max(0, sy - 1); ny <= Math.min(rows - 1, sy + 1); ny++) {
          for (let nx = Math.max(0, sx - 1); nx <= Math.min(cols - 1, sx + 1); nx++) {
            const j = (ny * cols + nx) * COLOURS + c;
            ws += subject[j]!;
            wb += background[j]!;
          }
        }
        q = Math.max(q, (ws + 0.5) / (ws + wb + 1));
      }
      out[y * W + x] = q;
    }
  }
  return out;
}

/** Combines two independent probabilities of the same event (product of their odds). */
export function combineOdds(p: Float32Array, q: Float32Array): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const a = p[i]! * q[i]!;
    const b = (1 - p[i]!) * (1 - q[i]!);
    out[i] = a + b > 0 ? a / (a + b) : p[i]!;
  }
  return out;
}

/**
 * A key's own matte teaches its own colour check only where it is this sure (p ≤ 0.05 or ≥ 0.95):
 * the people model's halo over the background lies at 0.6–0.85, and must not teach the
 * background's colours as subject.
 */
const OWN_SURE = 0.05;

/**
 * Long side the own-colour check works at, whatever the working side: its passes were tuned at
 * 256, finer its cells' statistics spread a textured background over more colours (lucia's
 * first 16 frames at a 384 working side: at worst 2.6 % of the subject beside the feet checked
 * at 384, 0.8 % at 256), and it costs a quarter as much.
 */
const OWN_SIDE = 256;

/** A frame's quantised colours at the own-colour check's size (RGB planes at width × height). */
export interface OwnColours {
  colours: Uint16Array;
  width: number;
  height: number;
}

/** The frame's colours for `checkOwnColours`, its planes first area-resized to `OWN_SIDE`. */
export function ownColoursOf(planes: Float32Array[], width: number, height: number): OwnColours {
  const [w, h] = fitLongSide(width, height, OWN_SIDE);
  const small = planes.map((data) => resizeMap({ data, width, height }, w, h).data);
  return { colours: quantiseColours(small), width: w, height: h };
}

/**
 * A matte weighed against its own frame's local colour statistics (`own`, at most `OWN_SIDE`):
 * what it is unsure of takes the side whose colours it has around there. A colour seen nowhere
 * around, or on both sides alike, leaves it as it was. Each pass is taught by the one before: a
 * halo pixel the first pass made sure teaches the next. A larger matte takes the passes'
 * evidence (their summed log-odds) resized to its own size.
 */
export function checkOwnColours(prob: FloatMap, own: OwnColours, passes: number): FloatMap {
  const { colours, width: W, height: H } = own;
  let p = resizeMap(prob, W, H);
  const still = stillFlow(p);
  const logOdds = new Float32Array(W * H);
  for (let i = 0; i < passes; i++) {
    const q = colourPosterior(buildColourModel(colours, p, OWN_SURE), colours, W, H, still);
    for (let j = 0; j < q.length; j++) logOdds[j] = logOdds[j]! + Math.log(q[j]! / (1 - q[j]!));
    p = { data: combineOdds(p.data, q), width: W, height: H };
  }
  if (prob.width === W && prob.height === H) return p;
  const shift = resizeMap({ data: logOdds, width: W, height: H }, prob.width, prob.height).data;
  const out = new Float32Array(prob.data.length);
  for (let i = 0; i < out.length; i++) {
    const a = prob.data[i]! * Math.exp(shift[i]!);
    out[i] = a / (a + 1 - prob.data[i]!);
  }
  return { data: out, width: prob.width, height: prob.height };
}
