import { boxIou, type Box } from '../prompts/detector';
import { REGION, type Candidate } from './choose';

/**
 * The candidates of a shot's keys linked into tracks, so the subject is chosen from what each
 * thing did over the shot so far, not from one key: a static structure stays static however
 * salient it is on one key, a subject that one key half loses keeps the keys it was chosen on,
 * and something that moved along with the subject on several keys joins it whatever its class.
 */

/** What a track did over the keys of the shot so far. */
export interface ShotEvidence {
  /** Keys of the shot so far (this one included). */
  keys: number;
  /** Keys that saw the track, and the keys it was (part of) the subject on. */
  seen: number;
  chosen: number;
  /** Mean saliency over the keys that saw it. */
  saliency: number;
  /**
   * Mean own motion over the keys that saw it with a trusted motion cue, and how many those were.
   */
  motion: number;
  motionKeys: number;
  /** Keys on which it moved along with the subject's core. */
  withSubject: number;
  /**
   * Whether the shot's subject clearly moved on an earlier key (the same for every track of the
   * shot).
   */
  subjectMoved: boolean;
}

/** A candidate of this key with the shot's evidence of the track it belongs to. */
export interface Tracked extends Candidate {
  track: number;
  shot: ShotEvidence;
}

interface Track {
  id: number;
  box: Box;
  /** Grid pixels a frame, from the candidate's mean flow. */
  velocity: [number, number];
  lastIndex: number;
  /** Keys since it was last seen. */
  missed: number;
  classIndex: number;
  /** Running sums behind its ShotEvidence (saliency and motion summed, not yet averaged). */
  sums: Pick<
    ShotEvidence,
    'seen' | 'chosen' | 'saliency' | 'motion' | 'motionKeys' | 'withSubject'
  >;
}

/** A track is matched when its predicted box overlaps a candidate this much (IoU). */
const MATCH_IOU = 0.3;
/** The core's own motion (0..1) from which the shot's subject has clearly moved. */
const SUBJECT_MOVES = 0.5;
/** A track unseen for more keys than this is forgotten. */
const FORGET_AFTER = 4;

export class ShotTracks {
  private tracks: Track[] = [];
  private shot = -1;
  private keys = 0;
  private subjectMoved = false;
  private nextId = 0;

  /**
   * Links this key's candidates to the shot's tracks (a new shot starts afresh) and returns them
   * with their tracks' evidence, this key counted. `gap` is the frames the motion cue spans.
   */
  link(
    candidates: readonly Candidate[],
    at: { index: number; shot: number; gap: number; motionTrusted: boolean },
  ): Tracked[] {
    if (at.shot !== this.shot) this.reset(at.shot);
    this.keys++;
    const pairs = this.matches(candidates, at.index);
    for (const t of this.tracks) t.missed++;
    return candidates.map((c) => {
      const t = pairs.get(c) ?? this.open(c);
      this.observe(t, c, at);
      return { ...c, track: t.id, shot: this.evidence(t) };
    });
  }

  /**
   * Records the key's subject: its members' tracks were chosen, and those moving with the core
   * moved with it.
   */
  settle(members: readonly Tracked[], movingWithCore: readonly Tracked[]): void {
    if (members[0] && members[0].motion >= SUBJECT_MOVES) this.subjectMoved = true;
    for (const m of members) this.byId(m.track).sums.chosen++;
    for (const m of movingWithCore) this.byId(m.track).sums.withSubject++;
    this.tracks = this.tracks.filter((t) => t.missed <= FORGET_AFTER);
  }

  private reset(shot: number): void {
    this.tracks = [];
    this.shot = shot;
    this.keys = 0;
    this.subjectMoved = false;
  }

  /**
   * Greedy one-to-one matching by IoU between each track's predicted box and the candidates. A
   * detected object's track goes to a detection of its class before any region of no class, so
   * a salient region over a person cannot take the person's track while the person is detected.
   */
  private matches(candidates: readonly Candidate[], index: number): Map<Candidate, Track> {
    const options = this.tracks.flatMap((t) =>
      candidates
        .filter((c) => compatible(t, c))
        .map((c) => ({
          t,
          c,
          same: t.classIndex === c.classIndex,
          iou: boxIou(predicted(t, index), c.box),
        })),
    );
    options.sort(
      (a, b) =>
        Number(b.same && b.iou >= MATCH_IOU) - Number(a.same && a.iou >= MATCH_IOU) ||
        b.iou - a.iou,
    );
    const pairs = new Map<Candidate, Track>();
    const taken = new Set<Track>();
    for (const o of options) {
      if (o.iou < MATCH_IOU || pairs.has(o.c) || taken.has(o.t)) continue;
      pairs.set(o.c, o.t);
      taken.add(o.t);
    }
    return pairs;
  }

  private open(c: Candidate): Track {
    const sums = { seen: 0, chosen: 0, saliency: 0, motion: 0, motionKeys: 0, withSubject: 0 };
    const t: Track = {
      id: this.nextId++,
      box: c.box,
      velocity: [0, 0],
      lastIndex: -1,
      missed: 0,
      classIndex: c.classIndex,
      sums,
    };
    this.tracks.push(t);
    return t;
  }

  private observe(
    t: Track,
    c: Candidate,
    at: { index: number; gap: number; motionTrusted: boolean },
  ): void {
    t.box = c.box;
    t.velocity = [c.flow[0] / Math.max(1, at.gap), c.flow[1] / Math.max(1, at.gap)];
    t.lastIndex = at.index;
    t.missed = 0;
    if (t.classIndex === REGION) t.classIndex = c.classIndex;
    t.sums.seen++;
    t.sums.saliency += c.saliency;
    if (at.motionTrusted) {
      t.sums.motion += c.motion;
      t.sums.motionKeys++;
    }
  }

  private evidence(t: Track): ShotEvidence {
    const s = t.sums;
    return {
      keys: this.keys,
      seen: s.seen,
      chosen: s.chosen,
      saliency: s.saliency / Math.max(1, s.seen),
      motion: s.motion / Math.max(1, s.motionKeys),
      motionKeys: s.motionKeys,
      withSubject: s.withSubject,
      subjectMoved: this.subjectMoved,
    };
  }

  private byId(id: number): Track {
    return this.tracks.find((t) => t.id === id)!;
  }
}

/** A detected object stays its class; a region of no class may turn out to be any object. */
function compatible(t: Track, c: Candidate): boolean {
  return t.classIndex === REGION || c.classIndex === REGION || t.classIndex === c.classIndex;
}

/** The track's last box moved on by its velocity to frame `index`. */
function predicted(t: Track, index: number): Box {
  const dt = index - t.lastIndex;
  const [dx, dy] = [t.velocity[0] * dt, t.velocity[1] * dt];
  return [t.box[0] + dx, t.box[1] + dy, t.box[2] + dx, t.box[3] + dy];
}
