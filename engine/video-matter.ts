import { CutDetector } from './matte/cuts';
import { denseFlow, warpBack, type FlowField } from './matte/flow';
import { fuseKeyMattes, type KeyMatte } from './matte/fusion';
import { keepMainSubject } from './matte/main-subject';
import { guidedCoefficients, applyToFrame } from './matte/guided-filter';
import { fitLongSide, grayOf, lumaOf, resampleRgb, resizeMap, type FloatMap, type GrayFrame, type RgbaFrame } from './matte/image';
import type { ModelManifest } from './models/manifest';
import { decodeOutput, modelInputSize, toInputTensor } from './models/io';
import type { InferenceRuntime, InferenceSession } from './runtime';
import type { TierConfig } from './tiers';

export interface VideoMatterOptions {
  runtime: InferenceRuntime;
  manifest: ModelManifest;
  tier: TierConfig;
  /** null (default): soft alpha. A number in 0..1: hard alpha, subject where alpha ≥ threshold. */
  threshold?: number | null;
  /**
   * Default true: the model runs on the tier's keyframes only and the frames between take their
   * matte from the keys around them along optical flow. false: the model runs on every frame.
   */
  smartSampling?: boolean;
}

export interface MatterStats {
  framesDone: number;
  inferences: number;
  /** Seconds spent per stage: "infer" (resize, normalise, run, decode) and "refine" (the rest). */
  stageSeconds: { infer: number; refine: number };
}

export interface VideoMatter {
  /**
   * Feeds the next frame (display order) and returns the alphas that became final, oldest
   * first: one byte per pixel, 255 = subject. A frame's matte depends on keyframes after it, so
   * alphas lag up to `latency` frames behind; `flush()` returns the rest at the end.
   * `scaled` (optional) is the same frame already at `workSize(tier, …)`, e.g. from the decoder;
   * without it the engine scales the frame itself.
   */
  push(frame: RgbaFrame, scaled?: RgbaFrame): Promise<Uint8Array[]>;
  flush(): Promise<Uint8Array[]>;
  /** Most frames held back at any time (the caller keeps this many frames in flight). */
  readonly latency: number;
  /** Drops held frames and all state (between videos or after a seek). */
  reset(): void;
  readonly stats: MatterStats;
  release(): Promise<void>;
}

const now = () => performance.now() / 1000;

type RgbPlanes = Float32Array[];

/** The working resolution of a tier for a frame size (long side = tier.workSide, never larger). */
export function workSize(tier: TierConfig, width: number, height: number): [number, number] {
  return fitLongSide(width, height, tier.workSide);
}

/** Normalises a user threshold: null/undefined → soft; 0..1 as is; 1..255 read as a byte. */
export function normalizeThreshold(t: number | null | undefined): number | null {
  if (t === null || t === undefined || Number.isNaN(t)) return null;
  const v = t > 1 ? t / 255 : t;
  return Math.min(1, Math.max(0, v));
}

interface Key extends KeyMatte {
  shot: number;
  /** The key's matte fused with its neighbours, once computed. */
  fused: FloatMap | null;
  /** Flows from this key to other keys (by index): the bisect check and fusion share them. */
  flows: Map<number, FlowField>;
}

interface Slot {
  index: number;
  shot: number;
  /**
   * The full frame, only while it may still become a key (the model input is built from it):
   * held frames are most of the matter's memory, and the luma is all the rest needs.
   */
  frame: RgbaFrame | null;
  /** Full-resolution luma: the guide the final alpha follows. */
  luma: GrayFrame;
  /** Luma at the flow resolution. */
  small: FloatMap;
  /** R, G, B at the working resolution (a model smaller than it is fed from these). */
  work: RgbPlanes;
  workLuma: FloatMap;
}

export async function createVideoMatter(opts: VideoMatterOptions): Promise<VideoMatter> {
  const { manifest: m, tier } = opts;
  const session: InferenceSession = await opts.runtime.load(m);
  const threshold = normalizeThreshold(opts.threshold);
  const interval = opts.smartSampling === false ? 1 : Math.max(1, tier.keyframes.interval);
  const radius = tier.keyframes.fuseRadius;
  // A key's matte fuses the raw keys within keyReach; a frame between keys fuses the two keys
  // around it, so it waits for the next key and for that key's own neighbours.
  const keyReach = radius * interval;
  const latency = (interval > 1 ? interval - 1 : 0) + keyReach;
  // With bisection a held frame may still become the midpoint of the last key and the next.
  const midpointReach = tier.keyframes.bisectBelow > 0 ? Math.ceil(interval / 2) : 0;
  const cuts = new CutDetector(tier.keyframes.cutThreshold);
  const stats: MatterStats = { framesDone: 0, inferences: 0, stageSeconds: { infer: 0, refine: 0 } };
  let pending: Slot[] = [];
  let keys: Key[] = [];
  let next = 0;
  let shot = 0;
  let lastKey = -Infinity;

  async function infer(slot: Slot): Promise<void> {
    const t0 = now();
    const { frame, workLuma } = slot;
    if (!frame) throw new Error(`frame ${slot.index} became a key after its pixels were released`);
    const [ww, wh] = [workLuma.width, workLuma.height];
    const [mw, mh] = modelInputSize(m, tier.inputSide, frame, tier.keepAspect);
    // A model no larger than the working resolution is fed from it: one pass over the frame.
    const planes = Math.max(mw, mh) <= Math.max(ww, wh) ? slot.work.map((c) => resizeMap({ data: c, width: ww, height: wh }, mw, mh).data) : resampleRgb(frame, mw, mh);
    const input = toInputTensor(planes, mw, mh, m);
    const out = await session.run({ [m.input.name]: input }, [m.output.name]);
    const t = out[m.output.name];
    if (!t) throw new Error(`Model ${m.id} returned no output "${m.output.name}"`);
    stats.inferences++;
    keys.push({ index: slot.index, shot: slot.shot, prob: resizeMap(decodeOutput(t, m), ww, wh), small: slot.small, fused: null, flows: new Map() });
    lastKey = slot.index;
    stats.stageSeconds.infer += now() - t0;
  }

  /** The flow from one key to another, computed once. */
  function keyFlow(from: Key, to: KeyMatte): FlowField {
    let f = from.flows.get(to.index);
    if (!f) {
      f = denseFlow(from.small, to.small);
      from.flows.set(to.index, f);
    }
    return f;
  }

  /** A key's matte after fusion with the raw keys of its shot within keyReach (cached). */
  function fusedKey(key: Key): FloatMap {
    if (!key.fused) {
      const near = keys.filter((k) => k.shot === key.shot && Math.abs(k.index - key.index) <= keyReach);
      key.fused = near.length > 1 ? fuseKeyMattes(key.small, key.index, near, interval, (k) => keyFlow(key, k)) : key.prob;
    }
    return key.fused;
  }

  /** The finished alpha of the oldest pending frame. */
  function finish(slot: Slot): Uint8Array {
    const t0 = now();
    const own = keys.find((k) => k.index === slot.index);
    let p: FloatMap;
    if (own) p = fusedKey(own);
    else {
      const around = nearestEachSide(
        keys.filter((k) => k.shot === slot.shot),
        slot.index,
      ).map((k) => ({ index: k.index, small: k.small, prob: fusedKey(k) }));
      p = fuseKeyMattes(slot.small, slot.index, around, interval);
    }
    // The guided filter may solve its coefficients on a coarser grid than the working one (the
    // apply reads the full-resolution luma either way); main-subject runs on that grid too.
    const g = tier.guided;
    const sub = g?.subsample ?? 1;
    if (sub > 1) p = resizeMap(p, Math.max(1, Math.round(p.width / sub)), Math.max(1, Math.round(p.height / sub)));
    if (tier.mainSubjectMinFraction !== null) p = keepMainSubject(p, tier.mainSubjectMinFraction);
    const guide = sub > 1 ? resizeMap(slot.workLuma, p.width, p.height) : slot.workLuma;
    const coef = g ? guidedCoefficients(p, guide, Math.max(1, Math.round(g.radius / sub)), g.eps, g.gain) : null;
    const alpha = new Uint8Array(slot.luma.data.length);
    applyToFrame(coef, p, slot.luma, threshold, alpha);
    stats.framesDone++;
    stats.stageSeconds.refine += now() - t0;
    // Later frames need the key before them and the raw keys around that one.
    const oldest = slot.index + 1 - interval - keyReach;
    keys = keys.filter((k) => k.index >= oldest);
    return alpha;
  }

  /** Finishes every pending frame whose keys are all known (or whose shot has ended). */
  function drain(all: boolean): Uint8Array[] {
    const done: Uint8Array[] = [];
    while (pending.length) {
      const slot = pending[0]!;
      const shotOver = slot.shot !== shot || all;
      if (!shotOver && next - 1 < slot.index + latency) break;
      pending.shift();
      done.push(finish(slot));
    }
    return done;
  }

  /** The last frame of a shot becomes a key, so frames before it have one on each side. */
  async function closeShot(): Promise<void> {
    const last = pending[pending.length - 1];
    if (last && last.index !== lastKey && last.shot === shot) await inferKey(last);
  }

  /**
   * Runs the model on a new key; if the previous key of the shot, carried onto it along the
   * flow, disagrees too much (fast or non-rigid motion, or the model changing its mind), the
   * frame halfway between them becomes a key as well.
   */
  async function inferKey(slot: Slot): Promise<void> {
    const prev = lastKey;
    await infer(slot);
    const bisect = tier.keyframes.bisectBelow;
    if (bisect <= 0 || slot.index - prev < 2) return;
    const a = keys.find((k) => k.index === prev && k.shot === slot.shot);
    const b = keys[keys.length - 1]!;
    if (!a) return;
    const t0 = now();
    const overlap = confidentOverlap(b.prob, warpBack(a.prob, keyFlow(b, a)));
    stats.stageSeconds.refine += now() - t0;
    if (overlap >= bisect) return;
    const mid = pending.find((p) => p.index === Math.round((prev + slot.index) / 2));
    if (mid) {
      await infer(mid);
      lastKey = slot.index;
    }
  }

  return {
    stats,
    latency,
    async push(frame, scaled) {
      const t0 = now();
      const [ww, wh] = workSize(tier, frame.width, frame.height);
      const work = resampleRgb(scaled && scaled.width === ww && scaled.height === wh ? scaled : frame, ww, wh);
      const workLuma = lumaOf(work, ww, wh);
      // Flow runs only when mattes travel between frames; otherwise the cut check uses workLuma.
      const small = interval > 1 || radius > 0 ? resizeMap(workLuma, ...fitLongSide(frame.width, frame.height, tier.keyframes.flowSide)) : workLuma;
      const luma = grayOf(frame);
      stats.stageSeconds.refine += now() - t0;
      const out: Uint8Array[] = [];
      if (cuts.isCut(small)) {
        await closeShot();
        shot++;
        out.push(...drain(false));
      }
      const slot: Slot = { index: next++, shot, frame, luma, small, work, workLuma };
      pending.push(slot);
      const shotStart = !keys.some((k) => k.shot === shot);
      if (shotStart || slot.index - lastKey >= interval) await inferKey(slot);
      out.push(...drain(false));
      // Frames that may still become keys keep their pixels: the newest (a shot's last frame
      // becomes one when a cut or the end shows up) and those within midpointReach after the
      // last key (the midpoint between two keys is always there).
      for (const p of pending) if (p !== slot && !(p.index > lastKey && p.index <= lastKey + midpointReach)) p.frame = null;
      return out;
    },
    async flush() {
      await closeShot();
      return drain(true);
    },
    reset() {
      cuts.reset();
      pending = [];
      keys = [];
      lastKey = -Infinity;
      shot++;
    },
    release: () => session.release(),
  };
}

/**
 * Σ min / Σ max of two probability maps over the pixels both are sure of (p ≤ 0.25 or ≥ 0.75):
 * 1 when they agree, 0 when disjoint. Regions the model is unsure of are left to fusion; more
 * keys there would only add more unsure votes.
 */
function confidentOverlap(a: FloatMap, b: FloatMap): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i]!;
    const y = b.data[i]!;
    if ((x > 0.25 && x < 0.75) || (y > 0.25 && y < 0.75)) continue;
    inter += x < y ? x : y;
    union += x < y ? y : x;
  }
  return union > 0 ? inter / union : 1;
}

/** The closest key at or before `index` and the closest after it. */
function nearestEachSide<K extends KeyMatte>(keys: readonly K[], index: number): K[] {
  let before: K | null = null;
  let after: K | null = null;
  for (const k of keys) {
    if (k.index <= index && (!before || k.index > before.index)) before = k;
    if (k.index > index && (!after || k.index < after.index)) after = k;
  }
  return [before, after].filter((k): k is K => k !== null);
}
