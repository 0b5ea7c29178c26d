import type { SubjectStage } from './subject/stage';

/** Which frames the model sees, and how the others (and the keys themselves) get their matte. */
export interface KeyframeOptions {
  /**
   * The model runs on every `interval`-th frame (1 = every frame), and on each shot's first and
   * last frame.
   */
  interval: number;
  /**
   * Keyframes on each side of a frame whose mattes are fused into it along optical flow
   * (engine/matte/fusion.ts). 0: keys keep their own matte and frames between two keys fuse
   * those two.
   */
  fuseRadius: number;
  /**
   * Consecutive keys that overlap less than this (soft IoU of their confident pixels, after
   * aligning them by flow) get a key halfway between them too: dense inference where motion
   * is fast. 0: never.
   */
  bisectBelow: number;
  /**
   * A gap also gets its midpoint key when, on some frame in it, more than this share of the
   * subject carried from the keys into one region of the frame (a quarter of its long side)
   * lands where the frame does not look like either key's picture moved
   * (engine/matte/fusion.ts `unexplainedSubject`): motion the flow cannot follow, such as a
   * head turning away and back between two keys that agree. 0: never.
   */
  bisectUnexplainedAbove: number;
  /**
   * Fusion weighs each key by how much of its subject, carried onto the frame, the frame
   * explains: a key whose carried subject is this share unexplained counts 1/e as much
   * (engine/matte/fusion.ts). 0: not weighed.
   */
  unexplainedScale: number;
  /** Long side of the luma that optical flow runs on. */
  flowSide: number;
  /** Mean thumbnail change (0..1) between consecutive frames that counts as a cut. */
  cutThreshold: number;
}

/** One engine configuration: which model, at what size, and which matte stages around it. */
export interface TierConfig {
  /** Manifest id (engine/models/catalog.ts or a self-hoster's manifest). */
  model: string;
  /** Input side for resolution-flexible models (multiple of 32); fixed-size models ignore it. */
  inputSide: number;
  /** Flexible models: keep the frame's aspect ratio (long side = inputSide) instead of a square. */
  keepAspect: boolean;
  /** Long side of the working resolution where fusion, main-subject and guided filtering run. */
  workSide: number;
  keyframes: KeyframeOptions;
  /**
   * Edge-aware upsampling (guided filter at workSide, applied at full resolution). `gain`
   * (default 1) steepens alpha around 0.5: a narrower soft band at the edge, which slides
   * less visibly as the subject moves. `subsample` (default 1) solves the coefficients on a
   * grid that many times coarser than the working one, radius scaled to match.
   */
  guided: { radius: number; eps: number; gain?: number; subsample?: number } | null;
  /**
   * Drop regions smaller than this fraction of the largest one unless the model is sure of them
   * (engine/subject/main-subject.ts; null keeps everything).
   */
  mainSubjectMinFraction: number | null;
  /**
   * Frames between keys also weigh the matte carried to them along the flow against the keys'
   * local colour statistics (engine/matte/colour-model.ts): background a moving limb uncovers
   * since the key stops being carried along as subject.
   */
  colourModel: boolean;
  /**
   * The subject stage on the keys (engine/subject/subject-model.ts): the model's saliency, the
   * detector's objects and motion of their own choose the subject, and only it is kept. null:
   * the model's answer as it is.
   */
  subject: SubjectStage | null;
  /**
   * Each key's matte is also weighed against its own frame's local colour statistics, taught only
   * by the pixels the matte is surest of (engine/matte/colour-model.ts `checkOwnColours`): the
   * people model's soft halo, which the guided filter hardens into a band of background (grass
   * between the arms and the body), has the background's colours and goes; a limb has the
   * subject's and stays. `passes`: each taught by the one before. Absent: none.
   */
  ownColours?: { passes: number } | null;
}

/**
 * Keys on every frame: nothing is carried between keys, so none is bisected or weighed; a
 * thumbnail change of `cutThreshold` is a cut.
 */
export function keysOnEveryFrame(flowSide: number, cutThreshold = 0.15): KeyframeOptions {
  return {
    interval: 1,
    fuseRadius: 0,
    bisectBelow: 0,
    bisectUnexplainedAbove: 0,
    unexplainedScale: 0,
    flowSide,
    cutThreshold,
  };
}

/**
 * The subject stage of the ISNet tiers: SAM cuts along the chosen subject, no votes, one choice a
 * shot.
 */
const GENERAL_SUBJECT: SubjectStage = {
  kind: 'general',
  sam: true,
  samVotes: false,
  motionGap: 2,
  choice: 'shot',
};

/**
 * The two people configurations. `selfie`: MediaPipe selfie 256² on every frame, worked at a
 * 384-px long side (at 256 a full-body person's limbs were a few pixels wide and the guided
 * filter made a band of background around them), its soft halo checked against the frame's
 * own colours, guided-filter edges solved on a 192-px grid. `rvm`: Robust Video Matting on
 * every frame at 384 px on the long side (its recurrent state carried frame to frame), edges
 * by the guided filter without gain (RVM's alpha is already real alpha). Which one
 * `service-human` runs, and where the Studio runs the other, is decided by measurement
 * (docs/engine.md).
 */
export const PEOPLE_TIERS = {
  selfie: {
    model: 'selfie',
    inputSide: 512,
    keepAspect: true,
    workSide: 384,
    keyframes: keysOnEveryFrame(160),
    guided: { radius: 4, eps: 1e-3, gain: 2, subsample: 2 },
    mainSubjectMinFraction: 0.15,
    colourModel: false,
    subject: { kind: 'people', detectEvery: 8, motionGap: 2, margin: 0.15, cropSide: 256 },
    ownColours: { passes: 3 },
  },
  rvm: {
    model: 'rvm',
    inputSide: 384,
    keepAspect: true,
    workSide: 384,
    keyframes: keysOnEveryFrame(160),
    guided: { radius: 2, eps: 1e-3, gain: 1 },
    mainSubjectMinFraction: 0.15,
    colourModel: false,
    subject: null,
  },
} as const satisfies Record<string, TierConfig>;

export type PeopleModel = keyof typeof PEOPLE_TIERS;

/**
 * The engine configurations the API models run (engine/api-models.ts names each model's tier).
 * The numbers come from `npm run bench:quality` and `npm run bench:speed` (docs/engine.md has
 * the measured tables).
 */
export const TIERS = {
  light: {
    model: 'isnet',
    inputSide: 1024,
    keepAspect: false,
    workSide: 320,
    keyframes: {
      interval: 32,
      fuseRadius: 1,
      bisectBelow: 0.65,
      bisectUnexplainedAbove: 0.2,
      unexplainedScale: 0.1,
      flowSide: 128,
      cutThreshold: 0.15,
    },
    guided: { radius: 2, eps: 4e-3, gain: 2 },
    mainSubjectMinFraction: 0.15,
    colourModel: true,
    subject: GENERAL_SUBJECT,
  },
  human: PEOPLE_TIERS.selfie,
  original: {
    model: 'isnet',
    inputSide: 1024,
    keepAspect: false,
    workSide: 512,
    keyframes: {
      interval: 5,
      fuseRadius: 1,
      bisectBelow: 0.75,
      bisectUnexplainedAbove: 0,
      unexplainedScale: 0,
      flowSide: 192,
      cutThreshold: 0.15,
    },
    guided: { radius: 2, eps: 4e-3, gain: 2 },
    mainSubjectMinFraction: 0.15,
    colourModel: false,
    subject: GENERAL_SUBJECT,
  },
  pro: {
    model: 'isnet',
    inputSide: 1024,
    keepAspect: false,
    workSide: 768,
    keyframes: { ...keysOnEveryFrame(256), fuseRadius: 2 },
    guided: { radius: 3, eps: 4e-3, gain: 2 },
    mainSubjectMinFraction: 0.15,
    colourModel: false,
    subject: GENERAL_SUBJECT,
  },
} satisfies Record<string, TierConfig>;
export type TierName = keyof typeof TIERS;

/**
 * What a worker whose models run on a GPU (INFERENCE_DEVICE) runs instead, where the GPU makes a
 * better configuration affordable; the other tiers run as on the CPU. `human`: Robust Video
 * Matting on the same crop around the chosen person as the selfie model (the detector every 8th
 * frame, the same subject rules), seen at 384², its recurrent state carried while the crop
 * stays; the planes it is cut from at 768 px. Over the 18 DAVIS clips of people, J 0.653
 * against the selfie tier's 0.581, a third of its flicker, at 5.5x its time a frame on the CPU
 * (docs/engine.md, "Per-device tiers").
 */
export const GPU_TIERS: Partial<Record<TierName, TierConfig>> = {
  human: {
    ...PEOPLE_TIERS.rvm,
    inputSide: 768,
    subject: { ...PEOPLE_TIERS.selfie.subject, cropSide: 384 },
  },
};
