import { boxMean } from '../matte/box';
import { denseFlow } from '../matte/flow';
import { fitLongSide, resizeMap, type FloatMap } from '../matte/image';
import { labelRegions, type Region, type Regions } from '../matte/regions';
import { compositeRuntime, rgbPlanes } from '../models/composite-runtime';
import { compositeIo, decodeOutput, toInputTensor, type ModelIo } from '../models/io';
import { COCO_CLASSES } from '../prompts/concepts';
import { boxOf, decodeDetections, runDetector, type Box } from '../prompts/detector';
import { CENTERNET, SAM_DECODER, SAM_ENCODER } from '../prompts/models';
import { SAM_IO, samDecoderFeeds, samEmbedding, samMask } from '../prompts/sam';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';
import { chooseInShotKey } from './choose-in-shot';
import { ShotTracks } from './tracks';
import {
  boxArea,
  chooseSubject,
  grow,
  intersection,
  REGION,
  unionBox,
  type Candidate,
  type Subject,
} from './choose';
import { fitCameraMotion, median, ownMotion } from './motion';
import { samVote } from './sam-vote';

/**
 * The subject stage, packaged as a model so the video matter (engine/video-matter/index.ts) runs it
 * on its keyframes and carries its answers between them along optical flow, as it does a plain
 * segmentation model. On each key:
 *
 * 1. the segmentation model (ISNet) gives its saliency, the detector its COCO objects, and the
 *    frame's flow from a few frames back, with the camera's own motion fitted and removed, the
 *    regions that move by themselves;
 * 2. engine/subject/choose.ts picks the subject among them (several objects when they belong
 *    together) and remembers it for the next key of the shot;
 * 3. the answer is the segmentation model's own probability, with its fine edges, kept only on
 *    regions that lie on the subject. Where a region straddles the subject and something else
 *    (a crowd behind a dancer), or the model missed a member (the horse under its rider), SAM
 *    segments each member from its box: straddling regions are cut along SAM's mask and missed
 *    members come from SAM. A key with no subject comes out empty.
 */

export interface GeneralStage {
  kind: 'general';
  /**
   * 'shot': the subject is chosen from its candidates' tracks over the shot so far
   * (engine/subject/choose-in-shot.ts); 'key': from the key's candidates alone, with the key
   * before's box as persistence (engine/subject/choose.ts), as before the tracks.
   */
  choice: 'shot' | 'key';
  /**
   * Whether SAM may run where the saliency and the chosen objects disagree (costs a SAM encode on
   * those keys).
   */
  sam: boolean;
  /**
   * Whether SAM votes with the segmentation model inside the subject's box on every key with a
   * subject (engine/subject/sam-vote.ts; a SAM encode on each). Off in every tier: given the
   * ground truth's box it gains 0.03 J on both folds, but on the tiers' own answers it lost on
   * most clips of both folds (docs/engine.md); `<tier>:sam-votes` in bench:quality runs it.
   */
  samVotes: boolean;
  /** Frames back to the frame the motion cue compares a key with. */
  motionGap: number;
}

/** The grid the choice is made on (long side); the answer comes at up to OUTPUT_SIDE. */
const GRID_SIDE = 256;
const OUTPUT_SIDE = 1024;
/** Detections below this are not candidates. */
const MIN_DETECTION = 0.25;
/**
 * Salient regions under this share of the grid are not candidates, nor moving ones under
 * MIN_MOVING_SHARE.
 */
const MIN_REGION_SHARE = 0.002;
const MIN_MOVING_SHARE = 0.01;
/**
 * A region is the subject's when at least half of it lies in the subject's (grown) box, not the
 * subject's below STRAY.
 */
const STRAY = 0.15;
/** A detected member whose box the saliency covers less than this was missed by the model. */
const MISSED = 0.2;
/**
 * Own motion per frame between the two lumas (pixels of a GRID_SIDE-wide grid, above the
 * background's median) that counts as clearly moving: flow on texture and a shaking camera
 * leave some everywhere. Where the background itself moves by half that against the fitted
 * camera (a fast pan the flow cannot follow), the motion cue is not trusted at all.
 */
const MOVING_PER_FRAME = 1;
/**
 * Core motion (0..1) from which a region that stays still inside the subject's box is cut along
 * SAM's masks, and what "still" is.
 */
const STILL_CORE_MOTION = 0.5;
const STILL_SHARE = 0.25;

/**
 * The stage's I/O as the matter sees it: raw RGB at the segmentation model's size, and the frame's
 * context.
 */
export function subjectModelIo(base: ModelIo, motionGap: number): ModelIo {
  return {
    ...compositeIo(`subject(${base.id})`, base.file, base.input.size),
    frameContext: {
      info: 'frame_info',
      luma: 'luma',
      previousLuma: 'previous_luma',
      gap: motionGap,
    },
  };
}

/**
 * An InferenceRuntime whose one model is the subject stage over `base` and the prompt models of
 * `runtime`.
 */
export function subjectRuntime(
  runtime: InferenceRuntime,
  base: ModelIo,
  stage: GeneralStage,
): { runtime: InferenceRuntime; manifest: ModelIo } {
  const io = subjectModelIo(base, stage.motionGap);
  const composite = compositeRuntime('subject', runtime, io.output.name, async () => {
    const [segmenter, detector, encoder, decoder] = await Promise.all([
      runtime.load(base),
      runtime.load(CENTERNET),
      stage.sam ? runtime.load(SAM_ENCODER) : undefined,
      stage.sam ? runtime.load(SAM_DECODER) : undefined,
    ]);
    // Keys are analysed one at a time: each starts from the subject the one before chose.
    return {
      answer: keyAnalyser({ segmenter, detector, encoder, decoder }, base, stage),
      sessions: [segmenter, detector, encoder, decoder],
    };
  });
  return { runtime: composite, manifest: io };
}

interface Sessions {
  segmenter: InferenceSession;
  detector: InferenceSession;
  encoder?: InferenceSession;
  decoder?: InferenceSession;
}

/**
 * What one key needs: its RGB planes (0..255) at the model's size, the frame's index, shot and
 * size, and its lumas for motion.
 */
export interface KeyInput {
  planes: Float32Array[];
  width: number;
  height: number;
  frame: { index: number; shot: number; width: number; height: number; previousIndex: number };
  luma: FloatMap;
  previousLuma: FloatMap | null;
}

function keyAnalyser(s: Sessions, base: ModelIo, stage: GeneralStage) {
  const allClasses = new Set(COCO_CLASSES.map((_, i) => i));
  const choose = stage.choice === 'shot' ? shotChooser() : keyChooser();

  return async (feeds: Record<string, TensorData>): Promise<FloatMap> => {
    const k = readKey(feeds);
    const [gw, gh] = fitLongSide(k.frame.width, k.frame.height, GRID_SIDE);
    const [ow, oh] = fitLongSide(k.frame.width, k.frame.height, OUTPUT_SIDE);
    const seg = await s.segmenter.run(
      { [base.input.name]: toInputTensor(k.planes, k.width, k.height, base) },
      [base.output.name],
    );
    const prob = decodeOutput(seg[base.output.name]!, base);
    const saliency = resizeMap(prob, gw, gh);
    const det = await runDetector(s.detector, k.planes, k.width, k.height);
    const detections = decodeDetections(det.heatmap, det.sides, {
      classes: allClasses,
      minScore: MIN_DETECTION,
      nmsIou: 0.5,
      width: gw,
      height: gh,
    });
    const motion = k.previousLuma
      ? motionOf(k.previousLuma, k.luma, gw, gh, k.frame.index - k.frame.previousIndex)
      : null;
    const regions = labelRegions(saliency);
    const candidates = candidatesOf(saliency, regions, detections, motion);
    const subject = choose(candidates, {
      frame: k.frame,
      width: gw,
      height: gh,
      motionTrusted: motion !== null,
    });
    if (!subject) {
      return { data: new Float32Array(ow * oh), width: ow, height: oh };
    }
    const zone = grow(subject.box, 0.1, gw, gh);
    const inside = regions.regions.map((r) => insideShare(regions, r, zone));
    const still = stage.choice === 'shot' ? stillRegions(regions, subject, motion) : [];
    const verdicts = inside.map((x, j) =>
      verdictOf(x, subject, motion, Boolean(s.encoder), still[j] ?? false),
    );
    const missed = subject.members.some(isMissed);
    const sam = s.encoder && s.decoder ? samOnKey(s as Required<Sessions>, k, ow, oh) : null;
    const scale = ow / gw;
    const members =
      sam && (verdicts.includes('sam') || missed)
        ? await sam(subject.members.map((m) => scaled(m.box, scale)))
        : null;
    const answer = composeAnswer(resizeMap(prob, ow, oh), regions, verdicts, {
      zone,
      subject,
      motion,
      sam: members,
    });
    if (sam && stage.samVotes) await voteOn(answer, sam, scaled(subject.box, scale));
    return answer;
  };

  /**
   * SAM's vote on the answer (engine/subject/sam-vote.ts), asked with the box of all the
   * answer holds and the subject's box together, as it was measured with the ground truth's
   * box: the subject's box alone may leave out a part the answer rightly kept (a swan's neck).
   */
  async function voteOn(answer: FloatMap, sam: SamOnKey, subjectBox: Box): Promise<void> {
    const held = boxOf(answer);
    const box = held ? unionBox([held, subjectBox]) : subjectBox;
    const [mask] = await sam([box]);
    const zone = grow(box, 0.1, answer.width, answer.height);
    samVote(answer.data, answer.width, answer.height, mask!, zone);
  }
}

type SamOnKey = (boxes: readonly Box[]) => Promise<FloatMap[]>;

/**
 * SAM on one key at the answer's size: masks from boxes in the answer's pixels. The picture is
 * encoded once, on the first call, and only if there is one.
 */
function samOnKey(ss: Required<Sessions>, k: KeyInput, ow: number, oh: number): SamOnKey {
  let embedding: Promise<TensorData> | null = null;
  const encode = async () => {
    const picture = k.planes.map(
      (p) => resizeMap({ data: p, width: k.width, height: k.height }, ow, oh).data,
    );
    return samEmbedding(ss.encoder, picture, ow, oh);
  };
  return async (boxes) => {
    const e = await (embedding ??= encode());
    const masks: FloatMap[] = [];
    for (const box of boxes) {
      const feeds = {
        image_embeddings: { data: e.data.slice(), dims: e.dims },
        ...samDecoderFeeds({ box }, ow, oh),
      };
      const res = await ss.decoder.run(feeds, SAM_IO.decoderOutputs);
      masks.push(samMask(res.low_res_masks!, ow, oh));
    }
    return masks;
  };
}

const scaled = (b: Box, k: number): Box => [b[0] * k, b[1] * k, b[2] * k, b[3] * k];

interface ChoiceContext {
  frame: KeyInput['frame'];
  width: number;
  height: number;
  motionTrusted: boolean;
}

/** Key by key: the key before's subject box is the only memory. */
function keyChooser() {
  let remembered: { shot: number; box: Box | null } = { shot: -1, box: null };
  return (candidates: Candidate[], k: ChoiceContext): Subject | null => {
    const previous = remembered.shot === k.frame.shot ? remembered.box : null;
    const subject = chooseSubject(candidates, { width: k.width, height: k.height, previous });
    remembered = { shot: k.frame.shot, box: subject?.box ?? null };
    return subject;
  };
}

/** Over the shot: candidates linked into tracks, the choice made from what each track did. */
function shotChooser() {
  const tracks = new ShotTracks();
  return (candidates: Candidate[], k: ChoiceContext): Subject | null => {
    const gap = k.frame.index - k.frame.previousIndex;
    return chooseInShotKey(
      tracks,
      candidates,
      { index: k.frame.index, shot: k.frame.shot, gap, motionTrusted: k.motionTrusted },
      k,
    );
  };
}

export function readKey(feeds: Record<string, TensorData>): KeyInput {
  const { planes, width, height } = rgbPlanes(feeds.rgb!);
  const info = feeds.frame_info!.data;
  const map = (x: TensorData | undefined): FloatMap | null =>
    x ? { data: x.data, width: x.dims[3]!, height: x.dims[2]! } : null;
  return {
    planes,
    width,
    height,
    frame: {
      index: info[0]!,
      shot: info[1]!,
      width: info[2]!,
      height: info[3]!,
      previousIndex: info[4]!,
    },
    luma: map(feeds.luma)!,
    previousLuma: map(feeds.previous_luma),
  };
}

/**
 * Motion on the grid: each pixel's motion against the camera's, the background's level, the own
 * motion that counts as clearly moving between these two frames, and the raw flow.
 */
export interface GridMotion {
  own: FloatMap;
  background: number;
  moving: number;
  u: FloatMap;
  v: FloatMap;
}

/**
 * The motion cue between two lumas `frames` apart, on a gw × gh grid; null where the flow is not to
 * be trusted.
 */
export function motionOf(
  previous: FloatMap,
  current: FloatMap,
  gw: number,
  gh: number,
  frames: number,
): GridMotion | null {
  const flow = denseFlow(previous, current);
  const own = ownMotion(flow, fitCameraMotion(flow));
  const k = gw / flow.width;
  const grid = (m: FloatMap) => {
    const r = resizeMap(m, gw, gh);
    for (let i = 0; i < r.data.length; i++) r.data[i] = r.data[i]! * k;
    return r;
  };
  const g = grid(own);
  const background = median(Array.from(g.data));
  const moving = (MOVING_PER_FRAME * Math.max(1, frames) * gw) / GRID_SIDE;
  if (background > moving / 2) return null;
  return {
    own: g,
    background,
    moving,
    u: grid({ data: flow.u, width: flow.width, height: flow.height }),
    v: grid({ data: flow.v, width: flow.width, height: flow.height }),
  };
}

/** Mean of a map over a box (grid pixels). */
function meanIn(m: FloatMap, b: Box): number {
  const [x0, y0, x1, y1] = b.map(Math.round) as [number, number, number, number];
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, y0); y < Math.min(m.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(m.width, x1); x++) {
      sum += m.data[y * m.width + x]!;
      n++;
    }
  }
  return n ? sum / n : 0;
}

function shareAbove(m: FloatMap, b: Box, cut: number): number {
  const [x0, y0, x1, y1] = b.map(Math.round) as [number, number, number, number];
  let hit = 0;
  let n = 0;
  for (let y = Math.max(0, y0); y < Math.min(m.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(m.width, x1); x++) {
      if (m.data[y * m.width + x]! >= cut) hit++;
      n++;
    }
  }
  return n ? hit / n : 0;
}

/**
 * The cues of a candidate's box: how salient it is, how it moves against the camera, and its mean
 * flow.
 */
export function candidateCues(
  saliency: FloatMap,
  motion: GridMotion | null,
): (box: Box) => Pick<Candidate, 'saliency' | 'motion' | 'flow'> {
  return (box) => ({
    saliency: shareAbove(saliency, box, 0.5),
    motion: motion
      ? Math.min(1, Math.max(0, (meanIn(motion.own, box) - motion.background) / motion.moving))
      : 0,
    flow: motion ? [meanIn(motion.u, box), meanIn(motion.v, box)] : [0, 0],
  });
}

/**
 * Detections, salient regions and moving regions as candidates, with their cues measured on the
 * grid.
 */
export function candidatesOf(
  saliency: FloatMap,
  regions: Regions,
  detections: readonly { classIndex: number; score: number; box: Box }[],
  motion: GridMotion | null,
): Candidate[] {
  const cue = candidateCues(saliency, motion);
  const out: Candidate[] = detections.map((d) => ({
    box: d.box,
    classIndex: d.classIndex,
    detScore: d.score,
    ...cue(d.box),
  }));
  const minSize = MIN_REGION_SHARE * saliency.width * saliency.height;
  const fresh = (r: Region) =>
    r.size >= minSize && !out.some((c) => intersection(c.box, r.box) >= 0.5 * boxArea(r.box));
  for (const r of regions.regions.filter(fresh))
    out.push({ box: r.box, classIndex: REGION, detScore: 0, ...cue(r.box) });
  if (motion) {
    const moving = {
      data: motion.own.data.map((x) => (x - motion.background) / motion.moving),
      width: motion.own.width,
      height: motion.own.height,
    };
    const large = (r: Region) => r.size >= MIN_MOVING_SHARE * saliency.width * saliency.height;
    for (const r of labelRegions(moving, 1).regions.filter((r) => large(r) && fresh(r)))
      out.push({ box: r.box, classIndex: REGION, detScore: 0, ...cue(r.box) });
  }
  return out;
}

/** Share of a region's pixels inside a box. */
function insideShare({ labels, width }: Regions, r: Region, zone: Box): number {
  if (intersection(r.box, zone) >= boxArea(r.box)) return 1;
  let inside = 0;
  for (let y = Math.max(r.box[1], Math.ceil(zone[1])); y < Math.min(r.box[3], zone[3]); y++) {
    for (let x = Math.max(r.box[0], Math.ceil(zone[0])); x < Math.min(r.box[2], zone[2]); x++)
      if (labels[y * width + x] === r.id) inside++;
  }
  return inside / r.size;
}

/**
 * What becomes of a saliency region, from the share of it inside the subject's box: kept whole
 * when it lies inside or mostly inside (a swan's neck or a dancer's skirt beyond an imprecise
 * box), dropped when it lies outside; when it lies mostly outside but reaches in (a dancer
 * merged with the crowd behind), kept where it moves with a moving subject, or else cut along
 * SAM's mask (along the box without SAM).
 */
type Verdict = 'keep' | 'drop' | 'moving' | 'sam' | 'box';

function verdictOf(
  inside: number,
  subject: Subject,
  motion: GridMotion | null,
  sam: boolean,
  still: boolean,
): Verdict {
  if (inside <= STRAY) return 'drop';
  // A still region inside a moving subject's box (the fence a horse clears, the ramp under a
  // rider) is cut along SAM's masks of the members, which follow the objects, not the box.
  if (inside >= 0.5) return still && sam ? 'sam' : 'keep';
  if (motion && subject.members[0]!.motion >= 0.3) return 'moving';
  return sam ? 'sam' : 'box';
}

/**
 * Per saliency region: whether it stays still while the subject's core clearly moves (its own
 * motion below a quarter of the way from the background's to the core's).
 */
function stillRegions(
  { labels, regions }: Regions,
  subject: Subject,
  motion: GridMotion | null,
): boolean[] {
  const core = subject.members[0]!;
  if (!motion || core.motion < STILL_CORE_MOTION) return [];
  const sums = new Float64Array(regions.length + 1);
  for (let i = 0; i < labels.length; i++)
    sums[labels[i]!] = sums[labels[i]!]! + motion.own.data[i]!;
  const coreLevel = meanIn(motion.own, core.box);
  const cut = motion.background + STILL_SHARE * (coreLevel - motion.background);
  return regions.map((r) => sums[r.id]! / r.size < cut);
}

const isMissed = (m: Candidate) => m.classIndex !== REGION && m.saliency < MISSED;

interface Composition {
  zone: Box;
  subject: Subject;
  motion: GridMotion | null;
  /** SAM's mask of each member, where the choice needed them. */
  sam: FloatMap[] | null;
}

/**
 * The answer: the model's probability on the subject's regions, as their verdicts say, with
 * SAM's vote inside the subject's box where it has one, and the SAM masks of members the model
 * missed.
 */
function composeAnswer(
  out: FloatMap,
  regions: Regions,
  verdicts: readonly Verdict[],
  c: Composition,
): FloatMap {
  const { width: gw, height: gh, labels } = regions;
  const samGrid = c.sam ? maxOf(c.sam.map((m) => resizeMap(m, gw, gh))) : null;
  // A pixel moves with the subject when its own motion is at least half the subject's.
  const core = c.subject.members[0]!.box;
  const movingCut = c.motion
    ? c.motion.background + 0.5 * (meanIn(c.motion.own, core) - c.motion.background)
    : Infinity;
  const keep = new Float32Array(gw * gh);
  for (let i = 0; i < keep.length; i++) {
    const id = labels[i]!;
    if (!id) continue;
    const inZone = inBox(c.zone, i % gw, (i / gw) | 0);
    switch (verdicts[id - 1]!) {
      case 'keep':
        keep[i] = 1;
        break;
      case 'moving':
        keep[i] = inZone || c.motion!.own.data[i]! >= movingCut ? 1 : 0;
        break;
      case 'sam':
        keep[i] = samGrid && samGrid.data[i]! >= 0.5 ? 1 : 0;
        break;
      case 'box':
        keep[i] = inZone ? 1 : 0;
        break;
      case 'drop':
        break;
    }
  }
  // The soft rim below 0.5 around kept regions stays: the gate reaches two grid pixels further.
  const reach = boxMean(keep, gw, gh, 2);
  const gate = resizeMap(
    { data: reach.map((x) => (x > 0 ? 1 : 0)), width: gw, height: gh },
    out.width,
    out.height,
  );
  const data = out.data.map((p, i) => p * gate.data[i]!);
  if (c.sam)
    c.subject.members.forEach(
      (m, j) =>
        isMissed(m) &&
        addInside(
          data,
          out.width,
          out.height,
          c.sam![j]!,
          grow(m.box, 0.05, gw, gh),
          out.width / gw,
        ),
    );
  return { data, width: out.width, height: out.height };
}

const inBox = (b: Box, x: number, y: number) => x >= b[0] && x < b[2] && y >= b[1] && y < b[3];

/** Takes a member's SAM mask into the answer inside its box (grid box, scaled to the answer). */
function addInside(
  data: Float32Array,
  w: number,
  h: number,
  mask: FloatMap,
  box: Box,
  scale: number,
): void {
  const [x0, y0, x1, y1] = box.map((v) => Math.round(v * scale)) as [
    number,
    number,
    number,
    number,
  ];
  for (let y = y0; y < Math.min(h, y1); y++)
    for (let x = x0; x < Math.min(w, x1); x++)
      data[y * w + x] = Math.max(data[y * w + x]!, mask.data[y * w + x]!);
}

function maxOf(maps: FloatMap[]): FloatMap {
  const data = new Float32Array(maps[0]!.data.length);
  for (const m of maps)
    for (let i = 0; i < data.length; i++) if (m.data[i]! > data[i]!) data[i] = m.data[i]!;
  return { data, width: maps[0]!.width, height: maps[0]!.height };
}
