import { denseFlow, warpBack } from '../matte/flow';
import { fitLongSide, lumaOf, resizeMap, type FloatMap } from '../matte/image';
import type { InferenceSession } from '../runtime';
import { boxIou, boxOf } from './detector';
import {
  SAM_IO,
  samDecoderFeeds,
  samEmbedding,
  samLogits,
  samProbability,
  type SamPoint,
  type SamPrompt,
} from './sam';

/**
 * Following one clicked object through a video with SAM (click prompts, `prompt.mode:
 * "points"`). The clicked frame's answer is SAM's mask for the clicks. Every other key is asked
 * from the nearest key already answered: that key's mask is carried onto this frame along dense
 * optical flow, and SAM is prompted with the box around the carried mask plus its innermost
 * point as an include click. On DAVIS this beat the unmoved box (the object moves out of it
 * between keys) and passing SAM the previous answer's low-resolution mask (it pulls the answer
 * towards the object's old shape): docs/engine.md "Following a clicked object".
 *
 * When SAM's answer disagrees with the carried box (it jumped to something else), the carried
 * mask stands for the key; when nothing is left to carry (the object left the picture), the
 * object is lost from there on, in that direction.
 */

/** At most this many points in one click prompt (the API's limit). */
export const MAX_CLICK_POINTS = 20;

export interface ClickPrompt {
  /** The clicked frame's index on the job's timeline. */
  frame: number;
  /** In source pixels (the video's display size). */
  points: readonly SamPoint[];
}

/** What a key's answer leaves for the keys followed from it. */
export interface TrackState {
  index: number;
  /** The frame's luma at the flow size. */
  small: FloatMap;
  /** The object's probability at the flow size; null once it is lost. */
  mask: FloatMap | null;
}

export interface TrackAnswer {
  state: TrackState;
  /**
   * The answer as logits over the picture at SAM's low resolution (`samLogits`); null when lost.
   */
  logits: FloatMap | null;
}

export interface TrackOptions {
  /** The video's display size, in whose pixels clicks are given. */
  sourceWidth: number;
  sourceHeight: number;
  /** Long side of the lumas the flow between keys is computed on. */
  flowSide: number;
}

/**
 * SAM's answer must overlap the box it was asked from at least this much (box IoU), else the
 * carried mask stands.
 */
export const TRACK_AGREE_IOU = 0.3;

export interface TrackStats {
  /** Keys answered by SAM. */
  keys: number;
  /** Keys of the forward pass whose answer the pre-pass had given (no model run). */
  reused: number;
  /** Keys where SAM disagreed with the carried box, so the carried mask stood. */
  carried: number;
  /** Keys where the object was lost. */
  lost: number;
  seconds: { samEncode: number; samDecode: number; flow: number };
}

export interface TrackFrame {
  index: number;
  /** R, G, B planes (0..255) at `width` × `height`. */
  planes: Float32Array[];
  width: number;
  height: number;
}

export interface ClickTracker {
  readonly stats: TrackStats;
  /** The clicked frame's answer. */
  click(frame: TrackFrame, points: readonly SamPoint[]): Promise<TrackAnswer>;
  /** A key's answer followed from another key's state. */
  follow(frame: TrackFrame, from: TrackState): Promise<TrackAnswer>;
}

const now = () => performance.now() / 1000;

export function newTrackStats(): TrackStats {
  return {
    keys: 0,
    reused: 0,
    carried: 0,
    lost: 0,
    seconds: { samEncode: 0, samDecode: 0, flow: 0 },
  };
}

/** The frame's luma at the flow size. */
export function flowLuma(f: TrackFrame, flowSide: number): FloatMap {
  return resizeMap(
    lumaOf(f.planes, f.width, f.height),
    ...fitLongSide(f.width, f.height, flowSide),
  );
}

export function clickTracker(
  s: { encoder: InferenceSession; decoder: InferenceSession },
  opts: TrackOptions,
  stats = newTrackStats(),
): ClickTracker {
  async function sam(f: TrackFrame, prompt: SamPrompt): Promise<FloatMap> {
    const t0 = now();
    const embedding = await samEmbedding(s.encoder, f.planes, f.width, f.height);
    const t1 = now();
    const res = await s.decoder.run(
      { image_embeddings: embedding, ...samDecoderFeeds(prompt, f.width, f.height) },
      SAM_IO.decoderOutputs,
    );
    stats.seconds.samEncode += t1 - t0;
    stats.seconds.samDecode += now() - t1;
    return samLogits(res.low_res_masks!, f.width, f.height);
  }

  const answer = (index: number, small: FloatMap, logits: FloatMap | null): TrackAnswer => {
    if (!logits || !boxOf(samProbability(logits, logits.width, logits.height))) {
      stats.lost++;
      return { state: { index, small, mask: null }, logits: null };
    }
    return {
      state: { index, small, mask: samProbability(logits, small.width, small.height) },
      logits,
    };
  };

  return {
    stats,
    async click(f, points) {
      stats.keys++;
      const sx = f.width / opts.sourceWidth;
      const sy = f.height / opts.sourceHeight;
      const logits = await sam(f, {
        points: points.map((p) => ({ x: p.x * sx, y: p.y * sy, include: p.include })),
      });
      return answer(f.index, flowLuma(f, opts.flowSide), logits);
    },
    async follow(f, from) {
      stats.keys++;
      const t0 = now();
      const small = flowLuma(f, opts.flowSide);
      if (!from.mask) {
        stats.lost++;
        return { state: { index: f.index, small, mask: null }, logits: null };
      }
      const there =
        from.small.width === small.width && from.small.height === small.height
          ? from.small
          : resizeMap(from.small, small.width, small.height);
      const carried = warpBack(
        resizeMap(from.mask, small.width, small.height),
        denseFlow(small, there),
      );
      stats.seconds.flow += now() - t0;
      const box = boxOf(carried);
      const inner = innermostPoint(carried);
      if (!box || !inner) return answer(f.index, small, null);
      const kx = f.width / small.width;
      const ky = f.height / small.height;
      const logits = await sam(f, {
        box: [box[0] * kx, box[1] * ky, box[2] * kx, box[3] * ky],
        points: [{ x: inner.x * kx, y: inner.y * ky, include: true }],
      });
      const got = boxOf(samProbability(logits, small.width, small.height));
      if (got && boxIou(got, box) >= TRACK_AGREE_IOU) return answer(f.index, small, logits);
      stats.carried++;
      return answer(f.index, small, logitsOf(resizeMap(carried, logits.width, logits.height)));
    },
  };
}

/**
 * The pre-pass for the keys before the clicked frame: `frames` yields the clicked frame first,
 * then earlier keys, nearest first; each is followed from the one before it in that order.
 */
export async function trackBackward(
  tracker: ClickTracker,
  frames: Iterable<TrackFrame> | AsyncIterable<TrackFrame>,
  points: readonly SamPoint[],
  onAnswer: (a: TrackAnswer) => void,
): Promise<void> {
  let last: TrackState | null = null;
  for await (const f of frames) {
    const a: TrackAnswer = last ? await tracker.follow(f, last) : await tracker.click(f, points);
    last = a.state;
    onAnswer(a);
  }
}

/** Probability → logits, bounded (the carried mask standing in for SAM's answer). */
function logitsOf(p: FloatMap): FloatMap {
  const data = new Float32Array(p.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = Math.min(1 - 1e-4, Math.max(1e-4, p.data[i]!));
    data[i] = Math.log(v / (1 - v));
  }
  return { data, width: p.width, height: p.height };
}

/**
 * The point of the map's region (p ≥ 0.5) farthest from its edge (chamfer distance), as a click
 * that keeps SAM on the object rather than on a part of it or on what is next to it.
 */
export function innermostPoint(map: FloatMap): { x: number; y: number } | null {
  const { width: w, height: h } = map;
  const d = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) d[i] = map.data[i]! >= 0.5 ? 1e9 : 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      // Outside the picture counts as outside the object.
      const left = x > 0 ? d[i - 1]! : 0;
      const up = y > 0 ? d[i - w]! : 0;
      d[i] = Math.min(d[i]!, left + 1, up + 1);
    }
  }
  let best = -1;
  let at = -1;
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      const right = x < w - 1 ? d[i + 1]! : 0;
      const down = y < h - 1 ? d[i + w]! : 0;
      const v = Math.min(d[i]!, right + 1, down + 1);
      d[i] = v;
      if (v > best) {
        best = v;
        at = i;
      }
    }
  }
  return best > 0 ? { x: (at % w) + 0.5, y: Math.floor(at / w) + 0.5 } : null;
}

/** Sizes of a packed answer for frames of `width` × `height` (see `packAnswer`). */
export function answerLayout(width: number, height: number, flowSide: number) {
  const logits = samLogits(
    { data: new Float32Array(256 * 256), dims: [1, 1, 256, 256] },
    width,
    height,
  );
  const [sw, sh] = fitLongSide(width, height, flowSide);
  const lw = logits.width;
  const lh = logits.height;
  return { logits: [lw, lh] as const, small: [sw, sh] as const, length: 2 + lw * lh + 2 * sw * sh };
}

export type AnswerLayout = ReturnType<typeof answerLayout>;

/**
 * An answer as one fixed-length record (a pre-pass keeps them on disk until the forward pass reads
 * them).
 */
export function packAnswer(a: TrackAnswer, layout: AnswerLayout): Float32Array {
  const [lw, lh] = layout.logits;
  const [sw, sh] = layout.small;
  const out = new Float32Array(layout.length);
  out[0] = a.state.index;
  out[1] = a.logits ? 1 : 0;
  if (a.logits) out.set(resizeMap(a.logits, lw, lh).data, 2);
  out.set(resizeMap(a.state.small, sw, sh).data, 2 + lw * lh);
  if (a.state.mask) out.set(resizeMap(a.state.mask, sw, sh).data, 2 + lw * lh + sw * sh);
  return out;
}

export function unpackAnswer(r: Float32Array, layout: AnswerLayout): TrackAnswer {
  const [lw, lh] = layout.logits;
  const [sw, sh] = layout.small;
  const found = r[1] === 1;
  const at = (off: number, w: number, h: number): FloatMap => ({
    data: r.slice(off, off + w * h),
    width: w,
    height: h,
  });
  return {
    state: {
      index: r[0]!,
      small: at(2 + lw * lh, sw, sh),
      mask: found ? at(2 + lw * lh + sw * sh, sw, sh) : null,
    },
    logits: found ? at(2, lw, lh) : null,
  };
}
