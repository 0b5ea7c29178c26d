import { boxIou, type Box } from '../prompts/detector';

/**
 * Choosing the subject of a keyframe among candidates: the detector's objects, ISNet's salient
 * regions and regions moving on their own. Each is scored from what a viewer would call "the
 * subject": it stands out (saliency), moves against the camera (own motion), is large, near the
 * middle, and was the subject a moment ago (persistence). The best one is the core; objects
 * that touch it and belong with it join it (a rider's horse or bike, a held board, a region
 * moving with it), so the subject can be several objects. All boxes are in one pixel grid.
 */

export interface Candidate {
  box: Box;
  /**
   * COCO class index (engine/prompts/concepts.ts), or REGION for a salient or moving region of no
   * class.
   */
  classIndex: number;
  /** The detector's confidence; 0 for regions. */
  detScore: number;
  /** Share of the box the saliency model marks as subject (p ≥ 0.5). */
  saliency: number;
  /** Motion of its own against the camera's, 0 (none) to 1 (clearly moving). */
  motion: number;
  /** Mean flow inside the box (grid pixels between the two frames the motion cue compares). */
  flow: readonly [number, number];
}

export const REGION = -1;

/** The chosen subject: its members (the first is the core) and the box around them. */
export interface Subject {
  members: Candidate[];
  box: Box;
  score: number;
}

export interface ChooseOptions {
  width: number;
  height: number;
  /** The subject's box on the key before, same shot; null at a shot's start or when it was lost. */
  previous: Box | null;
}

const WEIGHTS = {
  saliency: 1,
  motion: 0.7,
  size: 0.5,
  centre: 0.3,
  persistence: 1,
  detector: 0.3,
};
/** Below this no candidate is a subject and the key comes out empty. */
export const MIN_SCORE = 0.45;
/** What the core of a subject needs: this much saliency, or this much motion of its own. */
export const CORE_SALIENCY = 0.15;
export const CORE_MOTION = 0.5;
/** A region of no class less salient than this is a motion candidate only. */
const MOTION_ONLY = 0.15;
/** Overlap (intersection over the smaller box) from which two boxes touch. */
export const TOUCH = 0.2;
/** What a person rides, holds or wears that DAVIS-style annotation counts with them. */
export const PERSON = 0;
const COMPANIONS = new Set([1, 3, 17, 24, 25, 26, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38]);

export function scoreOf(c: Candidate, o: ChooseOptions): number {
  return weighted(
    c,
    {
      saliency: c.saliency,
      motion: c.motion,
      persistence: o.previous ? boxIou(c.box, o.previous) : 0,
    },
    o,
  );
}

/**
 * The weighted cues of a candidate; saliency, motion and persistence as the caller measures them
 * (one key, or a shot).
 */
export function weighted(
  c: Candidate,
  cues: { saliency: number; motion: number; persistence: number },
  grid: { width: number; height: number },
): number {
  const area = boxArea(c.box) / (grid.width * grid.height);
  const cx = (c.box[0] + c.box[2]) / 2 / grid.width - 0.5;
  const cy = (c.box[1] + c.box[3]) / 2 / grid.height - 0.5;
  // A region only moving (no object, hardly salient) is the subject only when nothing else is:
  // flow alone also moves on water, smoke and the blur around a fast subject.
  const onlyMoving = c.classIndex === REGION && c.saliency < MOTION_ONLY ? 0.5 : 1;
  return (
    onlyMoving *
    (WEIGHTS.saliency * cues.saliency +
      WEIGHTS.motion * cues.motion +
      WEIGHTS.size * Math.min(1, Math.sqrt(area) / 0.4) +
      WEIGHTS.centre * (1 - Math.min(1, Math.hypot(cx, cy) / 0.7)) +
      WEIGHTS.persistence * cues.persistence +
      WEIGHTS.detector * c.detScore)
  );
}

/** The subject among the candidates, or null when none stands out enough to be one. */
export function chooseSubject(candidates: readonly Candidate[], o: ChooseOptions): Subject | null {
  const scored = rank(candidates, (c) => scoreOf(c, o));
  // The core must stand out by itself: salient, or moving. An object neither marks (a faint
  // detection in an empty street) joins a subject only as its companion, unless it is the
  // subject of the key before, continuing.
  const best = scored.find(
    ({ c }) => c.saliency >= CORE_SALIENCY || c.motion >= CORE_MOTION || continues(c, o.previous),
  );
  if (!best || best.score < MIN_SCORE) return null;
  return grownFrom(best, scored, belongsWith);
}

/** Candidates with their scores, best first. */
export function rank<C extends Candidate>(
  candidates: readonly C[],
  score: (c: C) => number,
): { c: C; score: number }[] {
  return candidates.map((c) => ({ c, score: score(c) })).sort((a, b) => b.score - a.score);
}

/**
 * The subject grown from its core: every candidate that belongs with a member joins, until none
 * does.
 */
export function grownFrom<C extends Candidate>(
  best: { c: C; score: number },
  scored: readonly { c: C }[],
  belongs: (c: C, m: C) => boolean,
): Subject {
  const members = [best.c];
  for (let grew = true; grew;) {
    grew = false;
    for (const { c } of scored) {
      if (members.includes(c) || !members.some((m) => belongs(c, m))) continue;
      members.push(c);
      grew = true;
    }
  }
  return { members, box: unionBox(members.map((m) => m.box)), score: best.score };
}

/**
 * The subject of the key before, still there and still marked a little (a duck on water the
 * saliency model half loses).
 */
function continues(c: Candidate, previous: Box | null): boolean {
  return previous !== null && c.saliency > 0.05 && boxIou(c.box, previous) >= 0.5;
}

/**
 * Whether `c` joins the subject through member `m`: it touches it and rides, is held or moves with
 * it.
 */
export function belongsWith(c: Candidate, m: Candidate): boolean {
  if (touch(c.box, m.box) < TOUCH) return false;
  // Moving with it, and marked by the saliency model too: flow noise on water, leaves or a
  // shaking camera moves as well.
  return (
    isCompanion(c, m) ||
    (c.motion >= 0.3 && c.saliency >= 0.3 && movesWith(c.flow, m.flow)) ||
    isHeld(c, m)
  );
}

/** What a person rides, holds or wears, by COCO class. */
export function isCompanion(c: Candidate, m: Candidate): boolean {
  return (
    (c.classIndex === PERSON && COMPANIONS.has(m.classIndex)) ||
    (m.classIndex === PERSON && COMPANIONS.has(c.classIndex))
  );
}

/** A salient region of no class lying mostly on the member: something it holds or carries. */
export function isHeld(c: Candidate, m: Candidate): boolean {
  return (
    c.classIndex === REGION &&
    c.saliency >= 0.4 &&
    intersection(c.box, m.box) >= 0.6 * boxArea(c.box)
  );
}

/** Both move by themselves, the same way, on this key. */
export function coMoving(c: Candidate, m: Candidate): boolean {
  return c.motion >= 0.3 && m.motion >= 0.3 && movesWith(c.flow, m.flow);
}

export function movesWith(a: readonly [number, number], b: readonly [number, number]): boolean {
  return (
    Math.hypot(a[0] - b[0], a[1] - b[1]) <= 0.5 + 0.4 * Math.max(Math.hypot(...a), Math.hypot(...b))
  );
}

export function boxArea(b: Box): number {
  return Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
}

export function intersection(a: Box, b: Box): number {
  return (
    Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) *
    Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
  );
}

/** Intersection over the smaller box: 1 when one lies inside the other. */
export function touch(a: Box, b: Box): number {
  const s = Math.min(boxArea(a), boxArea(b));
  return s > 0 ? intersection(a, b) / s : 0;
}

export function unionBox(boxes: readonly Box[]): Box {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

/** A box grown by `share` of its size on every side, clamped to the grid. */
export function grow(b: Box, share: number, width: number, height: number): Box {
  const dx = (b[2] - b[0]) * share;
  const dy = (b[3] - b[1]) * share;
  return [
    Math.max(0, b[0] - dx),
    Math.max(0, b[1] - dy),
    Math.min(width, b[2] + dx),
    Math.min(height, b[3] + dy),
  ];
}
