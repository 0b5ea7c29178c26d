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
/** Floor on a source's certainty, so regions every source is unsure of still get a value. */
const CERTAINTY_FLOOR = 0.05;

/**
 * The matte of one frame from the keyframes around it: each key's matte is pulled onto the
 * frame along dense optical flow (frame → key), then all are averaged per pixel with weights
 * that fall with distance in time, with how well the warped key's picture matches the frame
 * there (occlusions, cuts and flow errors count for little), and with how sure the key was
 * (|2p − 1|). A pixel the model was unsure of on one frame (a dark body against dark water)
 * takes its value from the frames that were sure, which is why this beats inference on every
 * frame as well as being cheaper. `flowTo` gives the flow from this frame to a key (the caller
 * may have it already); by default it is computed.
 */
export function fuseKeyMattes(
  frameSmall: FloatMap,
  frameIndex: number,
  keys: readonly KeyMatte[],
  interval: number,
  flowTo: (key: KeyMatte) => FlowField = (key) => denseFlow(frameSmall, key.small),
): FloatMap {
  const { width: W, height: H } = keys[0]!.prob;
  const n = W * H;
  const num = new Float32Array(n);
  const den = new Float32Array(n);
  for (const key of keys) {
    let prob = key.prob.data;
    let photo: Float32Array | null = null;
    if (key.index !== frameIndex) {
      const flow = flowTo(key);
      prob = warpBack(key.prob, flow).data;
      photo = photometricConfidence(warpBack(key.small, flow), frameSmall, W, H);
    }
    const tw = Math.exp(-Math.abs(key.index - frameIndex) / Math.max(1, interval));
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
function photometricConfidence(warped: FloatMap, frame: FloatMap, W: number, H: number): Float32Array {
  const { width: w, height: h } = frame;
  const e = new Float32Array(w * h);
  for (let i = 0; i < e.length; i++) e[i] = Math.abs(warped.data[i]! - frame.data[i]!);
  const smooth = boxMean(e, w, h, 1);
  for (let i = 0; i < smooth.length; i++) smooth[i] = Math.exp(-smooth[i]! / SIGMA);
  return resizeMap({ data: smooth, width: w, height: h }, W, H).data;
}
