import { checkOwnColours, ownColoursOf } from '../matte/colour-model';
import { CutDetector } from '../matte/cuts';
import { resizeMap, type RgbaFrame } from '../matte/image';
import { decodeOutput, type ModelIo } from '../models/io';
import type { InferenceRuntime, InferenceSession } from '../runtime';
import { stageRuntime } from '../subject/stage';
import type { TierConfig } from '../tiers';
import { finishFrame, finishingFor } from './finish-frame';
import { frameLumas, heldFrame, keyOf, type Key, type Slot } from './frames';
import { gapFails } from './gap-check';
import { keyModel } from './key-model';
import {
  becomesKey,
  closesShot,
  keySpacing,
  keysKnown,
  mayBecomeKey,
  midpointOf,
  NO_KEY,
  oldestKeyNeeded,
  type FrameMark,
} from './key-schedule';
import { RunQueue } from './run-queue';
import { noStats, now, type MatterStats } from './stats';

export { workSize } from './frames';
export type { MatterStats } from './stats';

/*
 * The matter keeps the held frames and the keys; its parts are in engine/video-matter/:
 * key-schedule (where keys fall, how long frames wait), key-model (the model's runs),
 * run-queue (runs outstanding), gap-check (bisection) and finish-frame (a frame's alpha).
 */

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

/** Normalises a user threshold: null/undefined → soft; 0..1 as is; 1..255 read as a byte. */
export function normalizeThreshold(t: number | null | undefined): number | null {
  if (t === null || t === undefined || Number.isNaN(t)) return null;
  const v = t > 1 ? t / 255 : t;
  return Math.min(1, Math.max(0, v));
}

export async function createVideoMatter(opts: VideoMatterOptions): Promise<VideoMatter> {
  const { tier } = opts;
  // With a subject stage the model the keys run is the stage over the tier's model.
  const { runtime, manifest: m } = tier.subject
    ? stageRuntime(opts.runtime, opts.manifest, tier.subject)
    : opts;
  const session: InferenceSession = await runtime.load(m);
  const spacing = keySpacing(tier.keyframes, opts.smartSampling !== false, session.inFlight);
  const { interval, reach } = spacing;
  const model = keyModel(session, m, tier, spacing);
  const finishing = finishingFor(tier, spacing, normalizeThreshold(opts.threshold));
  // Flow runs only when mattes travel between frames or the subject stage reads motion.
  const flowsRun = interval > 1 || tier.keyframes.fuseRadius > 0 || (m.frameContext?.gap ?? 0) > 0;
  const cuts = new CutDetector(tier.keyframes.cutThreshold);
  const stats = noStats();
  const queue = new RunQueue(stats);
  let pending: Slot[] = [];
  /** Keys whose model output has arrived, in frame order. */
  let keys: Key[] = [];
  let next = 0;
  let shot = 0;
  let lastKey: FrameMark = NO_KEY;

  /**
   * Starts the model on a frame (its pixels are read now); the key joins `keys` when it returns.
   */
  function infer(slot: Slot): Promise<void> {
    const t0 = now();
    // Read now: a key's pixels may be dropped before its model answers.
    const own =
      tier.ownColours && slot.pixels
        ? ownColoursOf(slot.pixels.work, slot.workLuma.width, slot.workLuma.height)
        : null;
    const running = model.run(slot);
    stats.stageSeconds.infer += now() - t0;
    const gen = queue.generation;
    return running.then((out) => {
      if (gen !== queue.generation) return;
      const t1 = now();
      const t = model.output(out);
      stats.inferences++;
      const prob = resizeMap(decodeOutput(t, m), slot.workLuma.width, slot.workLuma.height);
      const key = keyOf(slot, own ? checkOwnColours(prob, own, tier.ownColours!.passes) : prob);
      const at = keys.findIndex((k) => k.index > key.index);
      keys.splice(at < 0 ? keys.length : at, 0, key);
      if (!queue.waiting) stats.stageSeconds.infer += now() - t1;
    });
  }

  /** The finished alpha of the oldest pending frame. */
  function finish(slot: Slot): Uint8Array {
    const t0 = now();
    const alpha = finishFrame(slot, keys, finishing);
    stats.framesDone++;
    stats.stageSeconds.refine += now() - t0;
    const oldest = oldestKeyNeeded(slot.index, spacing);
    keys = keys.filter((k) => k.index >= oldest);
    return alpha;
  }

  /**
   * Finishes pending frames, oldest first, once every key they may depend on is known and
   * those keys' model runs have returned. With `all` (the end of the video) it waits for the runs.
   */
  async function drain(all: boolean): Promise<Uint8Array[]> {
    const done: Uint8Array[] = [];
    while (pending.length) {
      const slot = pending[0]!;
      if (!keysKnown(slot, { index: next - 1, shot }, reach, all)) break;
      // Keys are never more than `interval` apart in a shot, so nothing beyond `reach` matters.
      const open = queue.open(slot.shot, slot.index + reach);
      if (open.length) {
        if (!all) break;
        await queue.waitFor(open);
      }
      queue.throwIfFailed();
      pending.shift();
      done.push(finish(slot));
    }
    return done;
  }

  /**
   * Makes a frame a key and starts its model run. With bisection, once this key and the one
   * before it (same shot) are both known, the frame halfway between them becomes a key as well
   * when the gap fails its check (`checkGap`).
   */
  function startKey(slot: Slot): void {
    const before = lastKey;
    lastKey = { index: slot.index, shot: slot.shot };
    const run = infer(slot);
    const midpoint = midpointOf(before, slot, spacing.bisecting);
    const prior = queue.find(before.index, slot.shot);
    const promise =
      midpoint === null
        ? run
        : Promise.all([run, prior?.promise]).then(() =>
            checkGap(before.index, slot.index, midpoint),
          );
    queue.add(slot.index, slot.shot, midpoint, promise);
  }

  /** Runs the model on the midpoint between two keys too when their gap fails its check. */
  function checkGap(prev: number, index: number, midpoint: number): Promise<void> | undefined {
    const a = keys.find((k) => k.index === prev);
    const b = keys.find((k) => k.index === index);
    if (!a || !b) return;
    const t0 = now();
    const split = gapFails(a, b, pending, tier.keyframes);
    stats.stageSeconds.refine += now() - t0;
    if (!split) return;
    const mid = pending.find((p) => p.index === midpoint);
    return mid ? infer(mid) : undefined;
  }

  /** The last frame of a shot becomes a key, so frames before it have one on each side. */
  function closeShot(): void {
    const last = pending[pending.length - 1];
    if (closesShot(last, lastKey, shot)) startKey(last!);
  }

  return {
    stats,
    latency: spacing.latency,
    async push(frame, scaled) {
      queue.throwIfFailed();
      const t0 = now();
      const lumas = frameLumas(tier, frame, scaled, flowsRun);
      stats.stageSeconds.refine += now() - t0;
      if (cuts.isCut(lumas.small)) {
        closeShot();
        shot++;
      }
      const slot = heldFrame(next++, shot, frame, lumas, tier.colourModel && interval > 1);
      model.remember(slot);
      pending.push(slot);
      if (becomesKey(slot, lastKey, interval, opts.keyframes)) startKey(slot);
      await queue.limit(spacing.depth);
      const out = await drain(false);
      // Held frames that can no longer become keys drop their pixels (most of the memory).
      const midpoints = queue.midpoints();
      for (const p of pending)
        if (!mayBecomeKey(p.index, slot.index, lastKey.index, spacing, midpoints)) p.pixels = null;
      return out;
    },
    async flush() {
      queue.throwIfFailed();
      closeShot();
      const out = await drain(true);
      queue.clear();
      return out;
    },
    reset() {
      queue.reset();
      cuts.reset();
      pending = [];
      keys = [];
      model.reset();
      lastKey = NO_KEY;
      shot++;
    },
    async release() {
      await queue.settle();
      await session.release();
    },
  };
}
