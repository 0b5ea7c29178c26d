import type { KeyframeOptions } from '../tiers';

/**
 * Where the video matter puts its keys and how long frames wait for them: pure rules over frame
 * indices, shots and the tier's keyframe options (index.ts keeps the state).
 */

/** How far apart keys fall and how far they reach, for one tier on one runtime. */
export interface KeySpacing {
  /** Frames from one key to the next (1: the model runs on every frame). */
  interval: number;
  /** A key's matte fuses the raw keys within this many frames of it. */
  keyReach: number;
  /** Frames after a frame that may hold a key its matte depends on. */
  reach: number;
  /** Model runs that may be outstanding while frames go on being pushed and finished. */
  depth: number;
  /** Most frames held back at any time. */
  latency: number;
  /** Whether the gap between two keys is checked (and may get a key at its midpoint). */
  bisecting: boolean;
  /** Frames after the last key that may still become the midpoint of it and the next. */
  midpointReach: number;
}

/** A frame (or key) by its index and shot. */
export interface FrameMark {
  index: number;
  shot: number;
}

/** The last key before any key has started. */
export const NO_KEY: FrameMark = { index: -Infinity, shot: -1 };

/**
 * The spacing of a tier's keys. `smartSampling` false runs the model on every frame;
 * `inFlight` is how many runs the runtime computes off the caller's thread at once.
 */
export function keySpacing(
  k: KeyframeOptions,
  smartSampling: boolean,
  inFlight: number | undefined,
): KeySpacing {
  const interval = smartSampling ? Math.max(1, k.interval) : 1;
  // A key's matte fuses the raw keys within keyReach; a frame between keys fuses the two keys
  // around it, so it waits for the next key and for that key's own neighbours.
  const keyReach = k.fuseRadius * interval;
  const reach = (interval > 1 ? interval - 1 : 0) + keyReach;
  // Each outstanding run lets up to `interval` more frames in before the oldest is waited for.
  const depth = Math.max(0, Math.floor(inFlight ?? 0));
  const bisecting = k.bisectBelow > 0 || k.bisectUnexplainedAbove > 0;
  // With bisection a held frame may still become the midpoint of the last key and the next.
  const midpointReach = bisecting ? Math.ceil(interval / 2) : 0;
  return {
    interval,
    keyReach,
    reach,
    depth,
    latency: reach + depth * interval,
    bisecting,
    midpointReach,
  };
}

/**
 * Whether a pushed frame becomes a key: the first of its shot, `interval` frames after the last
 * key, or one the caller asked for (a click prompt's clicked frame).
 */
export function becomesKey(
  frame: FrameMark,
  lastKey: FrameMark,
  interval: number,
  forced?: ReadonlySet<number>,
): boolean {
  return (
    lastKey.shot !== frame.shot ||
    frame.index - lastKey.index >= interval ||
    (forced?.has(frame.index) ?? false)
  );
}

/** The frame halfway between a new key and the key before it in its shot, when bisecting. */
export function midpointOf(before: FrameMark, key: FrameMark, bisecting: boolean): number | null {
  return bisecting && before.shot === key.shot && key.index - before.index >= 2
    ? Math.round((before.index + key.index) / 2)
    : null;
}

/**
 * Whether the newest held frame becomes a key when its shot ends (a cut or the end of the
 * video): the last frame of a shot is a key, so frames before it have one on each side.
 */
export function closesShot(
  newest: FrameMark | undefined,
  lastKey: FrameMark,
  shot: number,
): boolean {
  return newest !== undefined && newest.index !== lastKey.index && newest.shot === shot;
}

/**
 * Whether a held frame keeps its pixels, as it may still become a key: the newest (a shot's
 * last frame becomes one when a cut or the end shows up), those within `midpointReach` after
 * the last key (the midpoint between two keys is always there), and the midpoints of keys whose
 * check is still to come.
 */
export function mayBecomeKey(
  index: number,
  newest: number,
  lastKey: number,
  s: KeySpacing,
  midpoints: ReadonlySet<number>,
): boolean {
  return (
    index === newest ||
    midpoints.has(index) ||
    (index > lastKey && index <= lastKey + s.midpointReach)
  );
}

/**
 * Whether every key a held frame may depend on is known: all frames within `reach` after it
 * have been pushed, or its shot has ended (a cut, or `ended`: the end of the video).
 */
export function keysKnown(
  frame: FrameMark,
  newest: FrameMark,
  reach: number,
  ended: boolean,
): boolean {
  return frame.shot !== newest.shot || ended || newest.index >= frame.index + reach;
}

/**
 * The oldest key a frame after `index` may still need: the key before it and the raw keys around
 * that one.
 */
export function oldestKeyNeeded(index: number, s: KeySpacing): number {
  return index + 1 - s.interval - s.keyReach;
}
