import { PAN_PARTS } from '../models/catalog';
import { compositeRuntime, rgbPlanes, type RgbPicture } from '../models/composite-runtime';
import { compositeIo, decodeOutput, toInputTensor, type ModelIo } from '../models/io';
import { resizeMap, type FloatMap } from '../matte/image';
import type { InferenceRuntime, InferenceSession, TensorData } from '../runtime';
import type { Concept } from './concepts';
import { boxIou, boxOf, decodeDetections, runDetector, type Box, type Detection } from './detector';
import { CENTERNET, SAM_DECODER, SAM_ENCODER } from './models';
import {
  imageFeed,
  mapRegions,
  OPEN_VOCABULARY_IO,
  openVocabularyMap,
  textFeeds,
  type OpenVocabulary,
} from './open-vocabulary';
import { SAM_IO, samDecoderFeeds, samEmbedding, samMask, type SamPrompt } from './sam';

/**
 * Segmenting named concepts on one picture, packaged as a model so the video matter
 * (engine/video-matter/index.ts) runs it on its keyframes and carries its answers between them
 * along optical flow, fusing neighbouring keys, exactly as it does a tier's segmentation model:
 *
 * - objects: the detector's boxes for the wanted classes, each refined by SAM from the box;
 *   a box whose SAM mask disagrees with it (the mask's own box overlaps it less than
 *   `agreeIou`) is dropped, so a stray detection does not become a stray region;
 * - objects seen on the previous key but missed by the detector on this one (a score dipping
 *   under the threshold for a frame or two) are asked of SAM again from their last box, and
 *   kept when SAM still finds them there;
 * - new objects appear whenever the detector first sees them;
 * - phrases for a self-hoster's open-vocabulary model (open-vocabulary.ts): each region of its
 *   map is a box for SAM, as a detection is (a class of its own per phrase, score its best
 *   probability);
 * - person parts come from the parts model's channel.
 *
 * The answer is the union (max) of everything found, as a probability over the picture.
 */

/**
 * The composite's I/O as the matter sees it: raw RGB at up to 1024 on the long side (SAM's size),
 * one probability channel out.
 */
export const CONCEPT_MODEL_IO: ModelIo = compositeIo('concepts', 'concepts', 'multiple-of-32');

export interface ConceptSearch {
  concepts: readonly Concept[];
  /** Detections scoring below this are ignored. */
  minScore: number;
  /**
   * …and so are those under this share of the best score of their class on the key: a prompt
   * means the clear instances, not every faint far-away one (parked cars behind the car).
   */
  relativeScore: number;
  /** SAM's mask must overlap the box it was asked from at least this much (box IoU). */
  agreeIou: number;
  /** A missed object is looked for again from its last box on this many keys in a row. */
  carryKeys: number;
  /** The open-vocabulary model, when the concepts include phrases for it. */
  openVocabulary: OpenVocabulary | null;
  /** An open-vocabulary region must cover this share of the picture (at p ≥ 0.5). */
  minRegionShare: number;
}

export const DEFAULT_SEARCH: Omit<ConceptSearch, 'concepts' | 'openVocabulary'> = {
  minScore: 0.2,
  relativeScore: 0.5,
  agreeIou: 0.5,
  carryKeys: 2,
  minRegionShare: 0.001,
};

/** Seconds per stage, summed over the keys. */
export interface ConceptStats {
  keys: number;
  objects: number;
  dropped: number;
  seconds: {
    detect: number;
    openVocabulary: number;
    samEncode: number;
    samDecode: number;
    parts: number;
  };
}

interface Track {
  classIndex: number;
  box: Box;
  misses: number;
}

const now = () => performance.now() / 1000;

/** What one search asks for, worked out once from its concepts. */
interface SearchPlan {
  search: ConceptSearch;
  /** The detector's classes wanted as objects. */
  classes: Set<number>;
  /** The parts model's channels wanted. */
  parts: number[];
  /** Each phrase is a class of its own, numbered below the detector's. */
  phrases: { classIndex: number; text: string }[];
  ov: OpenVocabulary | null;
}

/** The search's state between keys: the figures, and the objects the last key found. */
interface SearchState {
  plan: SearchPlan;
  stats: ConceptStats;
  tracks: Track[];
}

/**
 * An InferenceRuntime whose one model is the concept search over `runtime`'s detector, SAM and
 * parts sessions (loaded on first use). Its runs are serialised: each key's search starts from
 * the objects the one before found.
 */
export function conceptRuntime(
  runtime: InferenceRuntime,
  search: ConceptSearch,
): { runtime: InferenceRuntime; stats: ConceptStats } {
  const stats: ConceptStats = {
    keys: 0,
    objects: 0,
    dropped: 0,
    seconds: { detect: 0, openVocabulary: 0, samEncode: 0, samDecode: 0, parts: 0 },
  };
  const state: SearchState = { plan: searchPlan(search), stats, tracks: [] };
  const { classes, parts, phrases, ov } = state.plan;
  // Keys run one at a time: each key's search starts from the tracks the one before left.
  const composite = compositeRuntime(
    'concepts',
    runtime,
    CONCEPT_MODEL_IO.output.name,
    async () => {
      const s = await loadSessions(
        runtime,
        {
          objects: classes.size > 0 || phrases.length > 0,
          parts: parts.length > 0,
          openVocabulary: phrases.length ? ov : null,
        },
        classes.size > 0,
      );
      return {
        answer: (feeds) => findConcepts(state, s, rgbPlanes(Object.values(feeds)[0]!)),
        sessions: Object.values(s),
      };
    },
  );
  return { runtime: composite, stats };
}

/** Sorts the concepts into detector classes, part channels and phrases; a phrase needs a model. */
function searchPlan(search: ConceptSearch): SearchPlan {
  const classes = new Set(
    search.concepts.flatMap((c) => (c.kind === 'object' ? [c.classIndex] : [])),
  );
  const parts = search.concepts.flatMap((c) => (c.kind === 'part' ? [c.channel] : []));
  const ov = search.openVocabulary;
  const phrases = search.concepts.flatMap((c, i) =>
    c.kind === 'open' ? [{ classIndex: -1 - i, text: c.name }] : [],
  );
  if (phrases.length && !ov)
    throw new Error(
      'The prompt names phrases for an open-vocabulary model, and none is configured',
    );
  return { search, classes, parts, phrases, ov };
}

/** Awaits `work`, adding its seconds to the stage's sum (also when it fails). */
async function timed<T>(
  stats: ConceptStats,
  stage: keyof ConceptStats['seconds'],
  work: Promise<T>,
): Promise<T> {
  const t0 = now();
  try {
    return await work;
  } finally {
    stats.seconds[stage] += now() - t0;
  }
}

/** Raises `out` to `m` wherever `m` is higher: the union of probabilities. */
function unionInto(out: Float32Array, m: FloatMap): void {
  for (let i = 0; i < out.length; i++) if (m.data[i]! > out[i]!) out[i] = m.data[i]!;
}

/** One key's search: objects and phrases through SAM (updating the tracks), then parts. */
async function findConcepts(state: SearchState, s: Sessions, key: RgbPicture): Promise<FloatMap> {
  const { classes, parts, phrases } = state.plan;
  const { width, height } = key;
  const out = new Float32Array(width * height);
  state.stats.keys++;
  if (classes.size || phrases.length) {
    const all: Detection[] = [];
    if (classes.size) all.push(...(await detectClasses(state, s, key)));
    for (const p of phrases) all.push(...(await findPhrase(state, s, p, key)));
    const asks = samAsks(state, keepClear(all, state.plan.search.relativeScore));
    state.tracks = asks.length ? await askSam(state, s, asks, key, out) : [];
  }
  if (parts.length) unionInto(out, await findParts(state, s, key));
  return { data: out, width, height };
}

/** The detector's boxes for the wanted classes, above the minimum score. */
async function detectClasses(
  state: SearchState,
  s: Sessions,
  key: RgbPicture,
): Promise<Detection[]> {
  const { planes, width, height } = key;
  const det = await timed(state.stats, 'detect', runDetector(s.detector!, planes, width, height));
  return decodeDetections(det.heatmap, det.sides, {
    classes: state.plan.classes,
    minScore: state.plan.search.minScore,
    nmsIou: 0.5,
    width,
    height,
  });
}

/** The regions of a phrase's open-vocabulary map, each a detection of the phrase's class. */
async function findPhrase(
  state: SearchState,
  s: Sessions,
  p: SearchPlan['phrases'][number],
  key: RgbPicture,
): Promise<Detection[]> {
  const { planes, width, height } = key;
  const ov = state.plan.ov!;
  const feeds = {
    [OPEN_VOCABULARY_IO.image]: imageFeed(ov.manifest, planes, width, height),
    ...textFeeds(ov, p.text),
  };
  const res = await timed(
    state.stats,
    'openVocabulary',
    s.openVocabulary!.run(feeds, [OPEN_VOCABULARY_IO.output]),
  );
  const map = openVocabularyMap(ov.manifest, res[OPEN_VOCABULARY_IO.output]!, width, height);
  return mapRegions(map, 0.5, state.plan.search.minRegionShare).map((r) => ({
    classIndex: p.classIndex,
    score: r.score,
    box: r.box,
  }));
}

/** Drops detections under `relativeScore` of their class's best: the clear instances only. */
function keepClear(all: Detection[], relativeScore: number): Detection[] {
  const best = new Map<number, number>();
  for (const d of all) best.set(d.classIndex, Math.max(best.get(d.classIndex) ?? 0, d.score));
  return all.filter((d) => d.score >= relativeScore * best.get(d.classIndex)!);
}

/** The boxes to ask SAM about: this key's detections, and tracks it missed, for a few keys. */
function samAsks(state: SearchState, found: Detection[]): Track[] {
  const carried = state.tracks.filter(
    (t) =>
      t.misses < state.plan.search.carryKeys &&
      !found.some((d) => d.classIndex === t.classIndex && boxIou(d.box, t.box) > 0.3),
  );
  return [
    ...found.map((d) => ({ classIndex: d.classIndex, box: d.box, misses: 0 })),
    ...carried.map((t) => ({ ...t, misses: t.misses + 1 })),
  ];
}

/**
 * SAM's mask for each ask, added to `out` and tracked (by its own box) only where it agrees
 * with the box it was asked from, so a stray detection does not become a stray region.
 */
async function askSam(
  state: SearchState,
  s: Sessions,
  asks: Track[],
  key: RgbPicture,
  out: Float32Array,
): Promise<Track[]> {
  const { planes, width, height } = key;
  const embedding = await timed(
    state.stats,
    'samEncode',
    samEmbedding(s.encoder!, planes, width, height),
  );
  const kept: Track[] = [];
  for (const ask of asks) {
    const mask = await samAnswer(
      state.stats,
      s.decoder!,
      embedding,
      { box: ask.box },
      width,
      height,
    );
    const got = boxOf(mask);
    if (!got || boxIou(got, ask.box) < state.plan.search.agreeIou) {
      state.stats.dropped++;
      continue;
    }
    state.stats.objects++;
    unionInto(out, mask);
    kept.push({ classIndex: ask.classIndex, box: got, misses: ask.misses });
  }
  return kept;
}

/** SAM's decoder on one prompt, as a mask at the picture's size. */
async function samAnswer(
  stats: ConceptStats,
  decoder: InferenceSession,
  embedding: TensorData,
  prompt: SamPrompt,
  width: number,
  height: number,
): Promise<FloatMap> {
  const feeds = {
    image_embeddings: { data: embedding.data.slice(), dims: embedding.dims },
    ...samDecoderFeeds(prompt, width, height),
  };
  const res = await timed(stats, 'samDecode', decoder.run(feeds, SAM_IO.decoderOutputs));
  return samMask(res.low_res_masks!, width, height);
}

/** The union of the wanted channels of the parts model, at the picture's size. */
async function findParts(state: SearchState, s: Sessions, key: RgbPicture): Promise<FloatMap> {
  const { width, height } = key;
  const input = resizeRgb(key, PAN_PARTS.input.size as readonly [number, number]);
  const res = await timed(
    state.stats,
    'parts',
    s.parts!.run(
      {
        [PAN_PARTS.input.name]: toInputTensor(input.planes, input.width, input.height, PAN_PARTS),
      },
      [PAN_PARTS.output.name],
    ),
  );
  return resizeMap(
    decodeOutput(res[PAN_PARTS.output.name]!, {
      ...PAN_PARTS,
      output: { ...PAN_PARTS.output, decode: { kind: 'union', channels: state.plan.parts } },
    }),
    width,
    height,
  );
}

interface Sessions {
  detector?: InferenceSession;
  openVocabulary?: InferenceSession;
  encoder?: InferenceSession;
  decoder?: InferenceSession;
  parts?: InferenceSession;
}

/**
 * SAM for anything found by boxes; the detector for COCO classes only (an open-vocabulary phrase
 * alone does not need it).
 */
async function loadSessions(
  runtime: InferenceRuntime,
  want: { objects: boolean; parts: boolean; openVocabulary: OpenVocabulary | null },
  classes: boolean,
): Promise<Sessions> {
  const ov = want.openVocabulary?.manifest;
  const [detector, encoder, decoder, pan, openVocabulary] = await Promise.all([
    classes ? runtime.load(CENTERNET) : undefined,
    want.objects ? runtime.load(SAM_ENCODER) : undefined,
    want.objects ? runtime.load(SAM_DECODER) : undefined,
    want.parts ? runtime.load(PAN_PARTS) : undefined,
    ov ? runtime.load({ id: ov.id, file: ov.file }) : undefined,
  ]);
  return { detector, encoder, decoder, parts: pan, openVocabulary };
}

function resizeRgb({ planes, width, height }: RgbPicture, [w, h]: readonly [number, number]) {
  return {
    planes: planes.map((p) => resizeMap({ data: p, width, height }, w, h).data),
    width: w,
    height: h,
  };
}
