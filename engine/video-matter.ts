import { buildColourModel, colourPosterior, combineOdds, quantiseColours, type ColourModel } from './matte/colour-model';
import { CutDetector } from './matte/cuts';
import { denseFlow, stillFlow, warpBack, type FlowField } from './matte/flow';
import { fuseKeyMattes, unexplainedSubject, type FusionWeights, type KeyMatte } from './matte/fusion';
import { keepMainSubject } from './matte/main-subject';
import { guidedCoefficients, applyToFrame } from './matte/guided-filter';
import { fitLongSide, grayOf, lumaOf, resampleRgb, resizeMap, type FloatMap, type GrayFrame, type RgbaFrame } from './matte/image';
import { decodeOutput, modelInputSize, toInputTensor, type ModelIo } from './models/io';
import type { InferenceRuntime, InferenceSession, TensorData } from './runtime';
import { stageRuntime } from './subject/stage';
import type { TierConfig } from './tiers';

export interface VideoMatterOptions {
  runtime: InferenceRuntime;
  manifest: ModelIo;
  tier: TierConfig;
  /** null (default): soft alpha. A number in 0..1: hard alpha, subject where alpha ≥ threshold. */
  threshold?: number | null;
  /**
   * Default true: the model runs on the tier's keyframes only and the frames between take their
   * matte from the keys around them along optical flow. false: the model runs on every frame.
   */
  smartSampling?: boolean;
  /** Frames that are keys whatever the interval (a click prompt's clicked frame). */
  keyframes?: ReadonlySet<number>;
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
  /**
   * Most frames held back at any time (the caller keeps this many frames in flight): the
   * keyframes' reach, plus the frames pushed while model runs are outstanding when the runtime
   * computes off the caller's thread (`InferenceSession.inFlight`).
   */
  readonly latency: number;
  /** Drops held frames and all state (between videos or after a seek). */
  reset(): void;
  readonly stats: MatterStats;
  release(): Promise<void>;
}

const now = () => performance.now() / 1000;

/** Cells along the long side in which the gap check looks for subject the keys do not explain. */
const CHECK_REGIONS = 4;

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
  /** Its local colour statistics, when the tier checks frames between keys against them. */
  colours: ColourModel | null;
}

/** A keyframe's model run and, with bisection, the check (and midpoint run) that follows it. */
interface Task {
  index: number;
  shot: number;
  /** The frame that may become a key when the gap between this key and the one before fails its check. */
  midpoint: number | null;
  settled: boolean;
  promise: Promise<void>;
}

interface Slot {
  index: number;
  shot: number;
  /**
   * The frame's colour, only while it may still become a key (the model input is built from
   * it): held frames are most of the matter's memory, and the lumas are all the rest needs.
   */
  pixels: {
    frame: RgbaFrame;
    /** R, G, B at the working resolution (a model smaller than it is fed from these). */
    work: RgbPlanes;
  } | null;
  /** Full-resolution luma: the guide the final alpha follows. */
  luma: GrayFrame;
  /** Luma at the flow resolution. */
  small: FloatMap;
  /** Flows from this frame to keys (by index), kept from the bisection check for the finish. */
  flows: Map<number, FlowField>;
  workLuma: FloatMap;
  /** Quantised colours at the working resolution, when the tier uses colour models. */
  colours: Uint16Array | null;
}

export async function createVideoMatter(opts: VideoMatterOptions): Promise<VideoMatter> {
  const { tier } = opts;
  // With a subject stage the model the keys run is the stage over the tier's model.
  const { runtime, manifest: m } = tier.subject ? stageRuntime(opts.runtime, opts.manifest, tier.subject) : opts;
  const session: InferenceSession = await runtime.load(m);
  const threshold = normalizeThreshold(opts.threshold);
  const interval = opts.smartSampling === false ? 1 : Math.max(1, tier.keyframes.interval);
  const radius = tier.keyframes.fuseRadius;
  // A key's matte fuses the raw keys within keyReach; a frame between keys fuses the two keys
  // around it, so it waits for the next key and for that key's own neighbours.
  const keyReach = radius * interval;
  const weights: FusionWeights = { interval, unexplainedScale: tier.keyframes.unexplainedScale };
  const reach = (interval > 1 ? interval - 1 : 0) + keyReach;
  // Model runs that may be outstanding while frames go on being pushed and finished; each one
  // lets up to `interval` more frames in before the oldest run is waited for.
  const depth = Math.max(0, Math.floor(session.inFlight ?? 0));
  const latency = reach + depth * interval;
  const { bisectBelow, bisectUnexplainedAbove } = tier.keyframes;
  const bisecting = bisectBelow > 0 || bisectUnexplainedAbove > 0;
  // With bisection a held frame may still become the midpoint of the last key and the next.
  const midpointReach = bisecting ? Math.ceil(interval / 2) : 0;
  const recurrent = m.recurrent ?? null;
  if (recurrent && (interval > 1 || bisecting)) throw new Error(`Model ${m.id} is recurrent: its tier must run it on every frame (interval 1, no bisection)`);
  /** A recurrent model's state after the last run started, and the shot it belongs to. */
  let carried: { shot: number; state: Promise<Record<string, TensorData>> } | null = null;
  const cuts = new CutDetector(tier.keyframes.cutThreshold);
  const stats: MatterStats = { framesDone: 0, inferences: 0, stageSeconds: { infer: 0, refine: 0 } };
  let pending: Slot[] = [];
  /** Keys whose model output has arrived, in frame order. */
  let keys: Key[] = [];
  let tasks: Task[] = [];
  let next = 0;
  let shot = 0;
  let lastKey = -Infinity;
  let lastKeyShot = -1;
  /** Bumped by reset(): model outputs that arrive for an earlier generation are dropped. */
  let generation = 0;
  let failure: Error | null = null;
  /** While the engine waits for model runs, output decoding already counts as waiting. */
  let waiting = false;
  /** The last frames' lumas at the flow resolution, for a model told the frame's context (its motion cue). */
  const motionGap = m.frameContext?.gap ?? 0;
  let recentLumas: { index: number; shot: number; small: FloatMap }[] = [];

  /** Starts the model on a frame (its pixels are read now); the key joins `keys` when it returns. */
  function infer(slot: Slot): Promise<void> {
    const t0 = now();
    const { pixels, workLuma } = slot;
    if (!pixels) throw new Error(`frame ${slot.index} became a key after its pixels were released`);
    const { frame, work } = pixels;
    const [ww, wh] = [workLuma.width, workLuma.height];
    const [mw, mh] = modelInputSize(m, tier.inputSide, frame, tier.keepAspect);
    // A model no larger than the working resolution is fed from it: one pass over the frame.
    const planes = Math.max(mw, mh) <= Math.max(ww, wh) ? work.map((c) => resizeMap({ data: c, width: ww, height: wh }, mw, mh).data) : resampleRgb(frame, mw, mh);
    const feeds = { [m.input.name]: toInputTensor(planes, mw, mh, m) };
    if (m.frameIndex) feeds[m.frameIndex] = { data: Float32Array.of(slot.index), dims: [1] };
    if (m.frameContext) Object.assign(feeds, contextFeeds(m.frameContext, slot, frame));
    const running = recurrent ? runRecurrent(recurrent, slot.shot, feeds) : session.run(feeds, [m.output.name]);
    stats.stageSeconds.infer += now() - t0;
    const gen = generation;
    return running.then((out) => {
      if (gen !== generation) return;
      const t1 = now();
      const t = out[m.output.name];
      if (!t) throw new Error(`Model ${m.id} returned no output "${m.output.name}"`);
      stats.inferences++;
      const prob = resizeMap(decodeOutput(t, m), ww, wh);
      const colours = slot.colours ? buildColourModel(slot.colours, prob) : null;
      const key: Key = { index: slot.index, shot: slot.shot, prob, small: slot.small, fused: null, flows: new Map(), colours };
      const at = keys.findIndex((k) => k.index > key.index);
      keys.splice(at < 0 ? keys.length : at, 0, key);
      if (!waiting) stats.stageSeconds.infer += now() - t1;
    });
  }

  /** The frame's index, shot, size and lumas (now and `motionGap` frames back in its shot), for the subject stage. */
  function contextFeeds(names: NonNullable<ModelIo['frameContext']>, slot: Slot, frame: RgbaFrame): Record<string, TensorData> {
    const asTensor = (f: FloatMap): TensorData => ({ data: f.data.slice(), dims: [1, 1, f.height, f.width] });
    const before = recentLumas.find((r) => r.shot === slot.shot && r.index < slot.index && r.index >= slot.index - motionGap);
    return {
      [names.info]: { data: Float32Array.of(slot.index, slot.shot, frame.width, frame.height, before?.index ?? slot.index), dims: [5] },
      [names.luma]: asTensor(slot.small),
      ...(before ? { [names.previousLuma]: asTensor(before.small) } : {}),
    };
  }

  /**
   * Runs a recurrent model with the state the previous frame's run left, or zeros on a shot's
   * first frame (cuts and reset() start a new shot). Runs chain: each waits for the state
   * before it, while the engine goes on preparing and finishing other frames.
   */
  function runRecurrent(r: NonNullable<ModelIo['recurrent']>, shotOf: number, feeds: Record<string, TensorData>) {
    const before = carried?.shot === shotOf ? carried.state : Promise.resolve(Object.fromEntries(r.state.map((s) => [s.input, { data: new Float32Array(1), dims: [1, 1, 1, 1] }])));
    const running = before.then((state) => session.run({ ...feeds, ...state }, [m.output.name, ...r.state.map((s) => s.output)]));
    const state = running.then((out) =>
      Object.fromEntries(
        r.state.map((s) => {
          const t = out[s.output];
          if (!t) throw new Error(`Model ${m.id} returned no state "${s.output}"`);
          return [s.input, t];
        }),
      ),
    );
    state.catch(() => undefined); // the run's own promise reports a failure
    carried = { shot: shotOf, state };
    return running;
  }

  /** Waits for model runs; the time counts as inference (the main thread has nothing else to do). */
  async function waitFor(list: Task[]): Promise<void> {
    const t0 = now();
    waiting = true;
    try {
      await Promise.all(list.map((t) => t.promise));
    } finally {
      waiting = false;
      stats.stageSeconds.infer += now() - t0;
    }
  }

  /** The flow from a frame (held or a key) to a key, computed once and kept on the frame. */
  function flowTo(from: { small: FloatMap; flows: Map<number, FlowField> }, to: KeyMatte): FlowField {
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
      key.fused = near.length > 1 ? fuseKeyMattes(key.small, key.index, near, weights, (k) => flowTo(key, k)) : key.prob;
    }
    return key.fused;
  }

  /**
   * Weighs a matte carried along the flow against what the frame's own colours say, by the local
   * colour statistics of the keys it came from (nearer keys count more).
   */
  function checkColours(p: FloatMap, colours: Uint16Array, index: number, around: Key[], flows: Map<number, FlowField>): FloatMap {
    const { width: W, height: H } = p;
    const votes = new Float32Array(W * H);
    let total = 0;
    for (const k of around) {
      if (!k.colours) continue;
      const w = Math.exp(-Math.abs(k.index - index) / interval);
      const q = colourPosterior(k.colours, colours, W, H, flows.get(k.index)!);
      for (let i = 0; i < q.length; i++) votes[i] = votes[i]! + w * q[i]!;
      total += w;
    }
    if (total === 0) return p;
    for (let i = 0; i < votes.length; i++) votes[i] = votes[i]! / total;
    return { data: combineOdds(p.data, votes), width: W, height: H };
  }

  /** The finished alpha of the oldest pending frame. */
  function finish(slot: Slot): Uint8Array {
    const t0 = now();
    const own = keys.find((k) => k.index === slot.index);
    const around = nearestEachSide(
      keys.filter((k) => k.shot === slot.shot && k !== own),
      slot.index,
    );
    let p: FloatMap;
    let flows: Map<number, FlowField>;
    if (own) {
      p = fusedKey(own);
      flows = new Map();
    } else {
      flows = new Map(around.map((k) => [k.index, flowTo(slot, k)]));
      const fused = around.map((k) => ({ index: k.index, small: k.small, prob: fusedKey(k) }));
      p = fuseKeyMattes(slot.small, slot.index, fused, weights, (k) => flows.get(k.index)!);
    }
    if (slot.colours) {
      // A key gets the check its neighbours get, from its own statistics and the keys around
      // it: otherwise it alone keeps what its model was unsure of and they drop, and the matte
      // pops on every key.
      if (own) {
        flows.set(own.index, stillFlow(own.small));
        for (const k of around) flows.set(k.index, flowTo(own, k));
      }
      p = checkColours(p, slot.colours, slot.index, own ? [own, ...around] : around, flows);
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

  /**
   * Finishes pending frames, oldest first, once every key they may depend on is known (all
   * frames within `reach` after them have been pushed, or their shot has ended) and those keys'
   * model runs have returned. With `all` (the end of the video) it waits for the runs.
   */
  async function drain(all: boolean): Promise<Uint8Array[]> {
    const done: Uint8Array[] = [];
    while (pending.length) {
      const slot = pending[0]!;
      const shotOver = slot.shot !== shot || all;
      if (!shotOver && next - 1 < slot.index + reach) break;
      // Keys are never more than `interval` apart in a shot, so nothing beyond `reach` matters.
      const horizon = slot.index + reach;
      const open = tasks.filter((t) => !t.settled && t.shot === slot.shot && t.index <= horizon);
      if (open.length) {
        if (!all) break;
        await waitFor(open);
      }
      throwIfFailed();
      pending.shift();
      done.push(finish(slot));
    }
    return done;
  }

  function throwIfFailed(): void {
    if (failure) throw failure;
  }

  /** Keeps at most `depth` model runs outstanding, waiting for the oldest ones. */
  async function limitOutstanding(): Promise<void> {
    for (;;) {
      const open = tasks.filter((t) => !t.settled);
      if (open.length <= depth) break;
      await waitFor([open[0]!]);
    }
    tasks = tasks.filter((t) => !t.settled);
    throwIfFailed();
  }

  /**
   * Makes a frame a key and starts its model run. With bisection, once this key and the one
   * before it (same shot) are both known, the frame halfway between them becomes a key as well
   * when the gap fails its check (`checkGap`).
   */
  function startKey(slot: Slot): void {
    const prev = lastKey;
    const prevShot = lastKeyShot;
    lastKey = slot.index;
    lastKeyShot = slot.shot;
    const run = infer(slot);
    const midpoint = bisecting && prevShot === slot.shot && slot.index - prev >= 2 ? Math.round((prev + slot.index) / 2) : null;
    const before = tasks.find((t) => t.index === prev && t.shot === slot.shot);
    const promise = midpoint === null ? run : Promise.all([run, before?.promise]).then(() => checkGap(prev, slot.index, midpoint));
    const task: Task = { index: slot.index, shot: slot.shot, midpoint, settled: false, promise };
    const gen = generation;
    promise.then(
      () => {
        task.settled = true;
      },
      (err: unknown) => {
        task.settled = true;
        if (gen === generation) failure ??= err instanceof Error ? err : new Error(`Model run failed: ${String(err)}`);
      },
    );
    tasks.push(task);
  }

  /**
   * Runs the model on the midpoint between two keys too when they disagree (the earlier one,
   * carried onto the later along the flow, overlaps it less than `bisectBelow`: fast or
   * non-rigid motion, or the model changing its mind), or when some frame between them is
   * explained by neither (`bisectUnexplainedAbove`: it left and came back, or turned away).
   */
  function checkGap(prev: number, index: number, midpoint: number): Promise<void> | undefined {
    const a = keys.find((k) => k.index === prev);
    const b = keys.find((k) => k.index === index);
    if (!a || !b) return;
    const t0 = now();
    const split =
      (bisectBelow > 0 && confidentOverlap(b.prob, warpBack(a.prob, flowTo(b, a))) < bisectBelow) ||
      (bisectUnexplainedAbove > 0 && worstUnexplained(a, b) > bisectUnexplainedAbove);
    stats.stageSeconds.refine += now() - t0;
    if (!split) return;
    const mid = pending.find((p) => p.index === midpoint);
    return mid ? infer(mid) : undefined;
  }

  /**
   * The largest share of carried subject that neither key explains in one region of a frame,
   * over the frames between them. Their flows to the keys are kept for their finish.
   */
  function worstUnexplained(a: Key, b: Key): number {
    let worst = 0;
    for (const slot of pending) {
      if (slot.index <= a.index || slot.index >= b.index) continue;
      worst = Math.max(worst, Math.min(unexplainedSubject(slot.small, a, flowTo(slot, a), CHECK_REGIONS), unexplainedSubject(slot.small, b, flowTo(slot, b), CHECK_REGIONS)));
    }
    return worst;
  }

  /** The last frame of a shot becomes a key, so frames before it have one on each side. */
  function closeShot(): void {
    const last = pending[pending.length - 1];
    if (last && last.index !== lastKey && last.shot === shot) startKey(last);
  }

  return {
    stats,
    latency,
    async push(frame, scaled) {
      throwIfFailed();
      const t0 = now();
      const [ww, wh] = workSize(tier, frame.width, frame.height);
      const work = resampleRgb(scaled && scaled.width === ww && scaled.height === wh ? scaled : frame, ww, wh);
      const workLuma = lumaOf(work, ww, wh);
      // Flow runs only when mattes travel between frames or the subject stage reads motion;
      // otherwise the cut check uses workLuma.
      const small = interval > 1 || radius > 0 || motionGap > 0 ? resizeMap(workLuma, ...fitLongSide(frame.width, frame.height, tier.keyframes.flowSide)) : workLuma;
      const luma = grayOf(frame);
      stats.stageSeconds.refine += now() - t0;
      if (cuts.isCut(small)) {
        closeShot();
        shot++;
      }
      const colours = tier.colourModel && interval > 1 ? quantiseColours(work) : null;
      const slot: Slot = { index: next++, shot, pixels: { frame, work }, luma, small, flows: new Map(), workLuma, colours };
      if (motionGap) recentLumas = [...recentLumas.filter((r) => r.index >= slot.index - motionGap), { index: slot.index, shot, small }];
      pending.push(slot);
      if (lastKeyShot !== shot || slot.index - lastKey >= interval || opts.keyframes?.has(slot.index)) startKey(slot);
      await limitOutstanding();
      const out = await drain(false);
      // Frames that may still become keys keep their pixels: the newest (a shot's last frame
      // becomes one when a cut or the end shows up), those within midpointReach after the last
      // key (the midpoint between two keys is always there), and the midpoints of keys whose
      // check is still to come.
      const midpoints = new Set(tasks.filter((t) => !t.settled && t.midpoint !== null).map((t) => t.midpoint));
      for (const p of pending) if (p !== slot && !midpoints.has(p.index) && !(p.index > lastKey && p.index <= lastKey + midpointReach)) p.pixels = null;
      return out;
    },
    async flush() {
      throwIfFailed();
      closeShot();
      const out = await drain(true);
      tasks = [];
      return out;
    },
    reset() {
      generation++;
      cuts.reset();
      pending = [];
      keys = [];
      tasks = [];
      failure = null;
      carried = null;
      recentLumas = [];
      lastKey = -Infinity;
      lastKeyShot = -1;
      shot++;
    },
    async release() {
      await Promise.allSettled(tasks.map((t) => t.promise));
      await session.release();
    },
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
