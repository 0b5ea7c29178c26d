import {
  boxArea,
  CORE_MOTION,
  CORE_SALIENCY,
  coMoving,
  grownFrom,
  isCompanion,
  isHeld,
  MIN_SCORE,
  PERSON,
  rank,
  REGION,
  touch,
  TOUCH,
  weighted,
  type Candidate,
  type Subject,
} from './choose';
import type { Box } from '../prompts/detector';
import type { ShotTracks, Tracked } from './tracks';

/**
 * The subject of a key chosen from its candidates' tracks over the shot so far
 * (engine/subject/tracks.ts), the same cues as engine/subject/choose.ts weighs on one key:
 *
 * - saliency and own motion are this key's blended with the track's mean over the shot;
 * - persistence is the share of the shot's earlier keys the track was the subject on, so one key
 *   that half loses the subject does not hand it to something else;
 * - a region of no class that stayed still over the shot is no core while something moves, nor
 *   in place of a moving subject gone from view;
 * - what moved along with the core on several keys joins it when it touches it, whatever its
 *   class (a pushed cart, a scooter); people and animals moving together with it join even
 *   apart from it (a group walking, dogs running with their owner).
 */

/** Own motion over the shot below which a track counts as still, and above which as moving. */
const STILL = 0.1;
const MOVING = 0.4;
/** Keys with a trusted motion cue a track needs before its shot motion is believed. */
const MOTION_KEYS = 2;
/** Keys a track must have moved along with the core to join it. */
const ALONG_KEYS = 2;
/** Keys a track must have been part of the subject on to stay part of it apart from the rest. */
const MEMBER_KEYS = 2;
/** Size ratio (box area) within which a moving person or animal is one of a group with the core. */
const GROUP_RATIO = 6;
const ANIMALS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);

/**
 * Links the key's candidates into the shot's tracks, chooses its subject and records the choice.
 */
export function chooseInShotKey(
  tracks: ShotTracks,
  candidates: readonly Candidate[],
  at: { index: number; shot: number; gap: number; motionTrusted: boolean },
  grid: { width: number; height: number },
): Subject | null {
  const tracked = tracks.link(candidates, at);
  const subject = chooseInShot(tracked, grid);
  const members = (subject?.members ?? []) as Tracked[];
  const core = members[0];
  tracks.settle(members, core ? tracked.filter((c) => c !== core && coMoving(c, core)) : []);
  return subject;
}

function chooseInShot(
  candidates: readonly Tracked[],
  grid: { width: number; height: number },
): Subject | null {
  const scored = rank(candidates, (c) => shotScore(c, grid));
  const somethingMoves = candidates.some(
    (c) => moving(c) && (c.saliency >= CORE_SALIENCY || c.classIndex !== REGION),
  );
  const best = scored.find(
    ({ c }) => mayBeCore(c) && !(isStill(c) && (somethingMoves || standsIn(c))),
  );
  if (!best || best.score < MIN_SCORE) return null;
  return grownFrom(best, scored, (c, m) => belongsInShot(c, m, best.c));
}

function shotScore(c: Tracked, grid: { width: number; height: number }): number {
  const s = c.shot;
  const motion = s.motionKeys ? (c.motion + s.motion) / 2 : c.motion;
  const persistence = s.keys > 1 ? s.chosen / (s.keys - 1) : 0;
  return weighted(c, { saliency: (c.saliency + s.saliency) / 2, motion, persistence }, grid);
}

/** Salient, moving, or the shot's subject so far and still faintly marked. */
function mayBeCore(c: Tracked): boolean {
  return (
    c.saliency >= CORE_SALIENCY ||
    c.motion >= CORE_MOTION ||
    (c.shot.chosen > 0 && c.saliency > 0.05)
  );
}

function moving(c: Tracked): boolean {
  return c.shot.motionKeys >= MOTION_KEYS ? c.shot.motion >= MOVING : c.motion >= CORE_MOTION;
}

/**
 * A still structure that would only stand in for a moving subject gone from view (a banner while
 * the rider is behind a spectator): the shot's subject moved, and this was never it.
 */
function standsIn(c: Tracked): boolean {
  return c.shot.subjectMoved && c.shot.chosen === 0;
}

/** A structure of no class that has not moved over the shot: a ramp, a fence, a sign. */
function isStill(c: Tracked): boolean {
  return c.classIndex === REGION && c.shot.motionKeys >= MOTION_KEYS && c.shot.motion < STILL;
}

function belongsInShot(c: Tracked, m: Tracked, core: Tracked): boolean {
  const along = c.shot.withSubject + (coMoving(c, core) ? 1 : 0) >= ALONG_KEYS && !isStill(c);
  if (touch(c.box, m.box) >= TOUCH) {
    const salientAlong = coMoving(c, m) && c.saliency >= 0.3;
    if (isCompanion(c, m) || isHeld(c, m) || salientAlong) return true;
  }
  // What moved along with the subject on several keys joins it where it meets a member (a pushed
  // cart meets its pusher's hands only), or apart from it as one of a group.
  return (along && (touch(grownBox(c.box), m.box) > 0 || isGroupOf(c, core))) || staysMember(c);
}

/**
 * A part of the subject on most keys that saw it stays part while it is marked or moves: the dog
 * that runs off from its owner.
 */
function staysMember(c: Tracked): boolean {
  const s = c.shot;
  return s.chosen >= MEMBER_KEYS && s.chosen * 2 >= s.seen - 1 && (c.saliency >= 0.3 || moving(c));
}

/** A box grown by a tenth of its size on every side, unclamped (only overlaps are measured). */
function grownBox(b: Box): Box {
  const dx = (b[2] - b[0]) / 10;
  const dy = (b[3] - b[1]) / 10;
  return [b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy];
}

/** People and animals that move with the core are one subject with it, near or apart. */
function isGroupOf(c: Tracked, core: Tracked): boolean {
  const living = (k: number) => k === PERSON || ANIMALS.has(k);
  if (!living(c.classIndex) || !living(core.classIndex)) return false;
  const ratio = boxArea(c.box) / Math.max(1, boxArea(core.box));
  return ratio >= 1 / GROUP_RATIO && ratio <= GROUP_RATIO && moving(c);
}
