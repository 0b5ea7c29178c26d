import { boxMean } from './box';
import { denseFlow, warpBack, type FlowField } from './flow';
import { resizeMap, type FloatMap } from './image';

/** A keyframe's matte, as a source for the frames around it. */
export interface KeyMatte {
  index: number;
  /** Subject probability at the working resolution. */
  prob: FloatMap;
  /** The keyframe's luma at the flow resolution. */
  small: FloatMap;
}

/** Photometric mismatch (grey levels) at which a warped source counts for 1/e. */
const SIGMA = 10 / 255;
/**
 * Mean luma difference (over 5×5) above which a region of a frame is not the key's picture moved.
 */
const UNEXPLAINED = 0.15;
/** Floor on a source's certainty, so regions every source is unsure of still get a value. */
const CERTAINTY_FLOOR = 0.05;

export interface FusionWeights {
  /** Key spacing: a key `interval` frames away counts 1/e as much as one on the frame. */
  interval: number;
  /**
   * A key whose carried subject is this share unexplained on the frame (`unexplainedSubject`)
   * counts 1/e as much there as one that explains it all. 0: not weighed.
   */
  unexplainedScale: number;
}

/**
 * The matte of one frame from the keyframes around it: each key's matte is pulled onto the
 * frame along dense optical flow (frame → key), then all are averaged per pixel with weights
 * that fall with distance in time, with how well the warped key's picture matches the frame
 * there (occlusions, cuts and flow errors count for little), optionally with how much of the
 * frame the key explains at all (a key the subject has turned away from since), and with how
 * sure the key was (|2p − 1|). A pixel the model was unsure of on one frame (a dark body
 * against dark water) takes its value from the frames that were sure, which is why this beats
 * inference on every frame as well as being cheaper. `flowTo` gives the flow from this frame
 * to a key (the caller may have it already); by default it is computed.
 */
export function fuseKeyMattes(
  frameSmall: FloatMap,
  frameIndex: number,
  keys: readonly KeyMatte[],
  weights: FusionWeights,
  flowTo: (key: KeyMatte) => FlowField = (key) => denseFlow(frameSmall, key.small),
): FloatMap {
  const { interval, unexplainedScale } = weights;
  const { width: W, height: H } = keys[0]!.prob;
  const n = W * H;
  const num = new Float32Array(n);
  const den = new Float32Array(n);
  for (const key of keys) {
    let prob = key.prob.data;
    let photo: Float32Array | null = null;
    let tw = Math.exp(-Math.abs(key.index - frameIndex) / Math.max(1, interval));
    if (key.index !== frameIndex) {
      const flow = flowTo(key);
      prob = warpBack(key.prob, flow).data;
      photo = photometricConfidence(warpBack(key.small, flow), frameSmall, W, H);
      if (unexplainedScale > 0)
        tw *= Math.exp(-unexplainedSubject(frameSmall, key, flow) / unexplainedScale);
    }
    for (let i = 0; i < n; i++) {
      const p = prob[i]!;
      const w = tw * (photo ? photo[i]! : 1) * (Math.abs(2 * p - 1) + CERTAINTY_FLOOR);
      num[i] = num[i]! + w * p;
      den[i] = den[i]! + w;
    }
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = den[i]! > 0 ? num[i]! / den[i]! : 0;
  return { data: out, width: W, height: H };
}

/** exp(−|warped − frame| / σ), lightly smoothed, at the working resolution. */
function photometricConfidence(
  warped: FloatMap,
  frame: FloatMap,
  W: number,
  H: number,
): Float32Array {
  const { width: w, height: h } = frame;
  const smooth = boxMean(mismatch(warped, frame), w, h, 1);
  for (let i = 0; i < smooth.length; i++) smooth[i] = Math.exp(-smooth[i]! / SIGMA);
  return resizeMap({ data: smooth, width: w, height: h }, W, H).data;
}

function mismatch(warped: FloatMap, frame: FloatMap): Float32Array {
  const e = new Float32Array(frame.data.length);
  for (let i = 0; i < e.length; i++) e[i] = Math.abs(warped.data[i]! - frame.data[i]!);
  return e;
}

/**
 * The share of a key's subject, carried onto a frame along `flow` (frame → key), that lands
 * where the frame does not look like the key's picture moved there: a head turning away, or
 * background it uncovers that the key's subject covered and the flow could not place. Small
 * mismatches along edges and in texture are averaged away (5×5 at the flow resolution), so it
 * measures whole regions the flow does not explain. 0 when the key has no subject. With
 * `regions` > 1 the frame is cut into that many cells along its long side and the worst cell
 * counts (its share taken of at least a quarter of the cell, so a few stray pixels do not):
 * a head turning away is much of its own cell even where a well-explained torso is most of
 * the subject.
 */
export function unexplainedSubject(
  frameSmall: FloatMap,
  key: KeyMatte,
  flow: FlowField,
  regions = 1,
): number {
  const { width: w, height: h } = frameSmall;
  const prob = warpBack(resizeMap(key.prob, w, h), flow).data;
  const e = boxMean(mismatch(warpBack(key.small, flow), frameSmall), w, h, 2);
  const cell = Math.ceil(Math.max(w, h) / regions);
  const cols = Math.ceil(w / cell);
  const subject = new Float32Array(cols * Math.ceil(h / cell));
  const unexplained = new Float32Array(subject.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (prob[i]! <= 0.5) continue;
      const c = Math.floor(y / cell) * cols + Math.floor(x / cell);
      subject[c] = subject[c]! + 1;
      if (e[i]! > UNEXPLAINED) unexplained[c] = unexplained[c]! + 1;
    }
  }
  const floor = regions > 1 ? (cell * cell) / 4 : 1;
  let worst = 0;
  for (let c = 0; c < subject.length; c++)
    worst = Math.max(worst, unexplained[c]! / Math.max(floor, subject[c]!));
  return worst;
}
