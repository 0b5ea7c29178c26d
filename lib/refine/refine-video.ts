import { apiModel, type ApiModel } from '../../engine/api-models';
import type { ModelIo } from '../../engine/models/io';
import type { InferenceRuntime } from '../../engine/runtime';
import type { TierConfig } from '../../engine/tiers';
import type { MediaInfo } from '../../engine/media/types';
import { grayOf, type GrayFrame } from '../../engine/matte/image';
import { CLICK_MODEL_IO, clickRuntime } from '../../engine/prompts/click-model';
import { newTrackStats } from '../../engine/prompts/click-track';
import {
  CONCEPT_MODEL_IO,
  conceptRuntime,
  DEFAULT_SEARCH,
} from '../../engine/prompts/concept-model';
import type { Concept } from '../../engine/prompts/concepts';
import type { SamPoint } from '../../engine/prompts/sam';
import {
  cleanEdges,
  fuseInto,
  REFINE_TIERS,
  takeWholeRegions,
  type RefineOp,
} from '../../engine/prompts/refine';
import { createVideoMatter, workSize } from '../../engine/video-matter';
import { verifiedOpenVocabularyModel } from '../models/open-vocabulary';
import { MediaError } from '../media/ffmpeg';
import { readFrames, readMaskFrames } from '../segment/frame-reader';
import { openMaskWriter } from '../segment/mask-writer';
import { trackBeforeClick } from './track-before-click';

/**
 * What a refinement looks for: the concepts a text prompt names, or the object clicked on one
 * frame.
 */
export type RefineTarget =
  | { mode: 'text'; concepts: readonly Concept[] }
  | {
      mode: 'points';
      /** The clicked frame's index on the job's timeline. */
      frame: number;
      /** In source pixels. */
      points: readonly SamPoint[];
    };

export interface RefineVideoOptions {
  /** The job's original and the mask version refined from (FFV1 grey). */
  input: string;
  info: MediaInfo;
  maskIn: string;
  maskOut: string;
  model: ApiModel;
  op: RefineOp;
  target: RefineTarget;
  /** Processing size of the edge cleanup on the fused mask, or null for none. */
  edgeCleanup: number | null;
  /** A private folder: a click prompt's pre-pass keeps frames and answers there. */
  scratchDir: string;
  signal?: AbortSignal;
  onProgress?: (framesDone: number) => void;
  /** The models the worker runs. */
  runtime: InferenceRuntime;
}

export interface RefineResult {
  frames: number;
  seconds: number;
  /**
   * Wall seconds per stage: decode, then the search's own (text: detect, samEncode, samDecode,
   * parts; points: prepassDecode, samEncode, samDecode, flow), propagate, fuse (fusion, edge
   * cleanup, encode).
   */
  stageSeconds: Record<string, number>;
  /**
   * What the search counted (text: keys, objects, dropped; points: keys, reused, carried, lost).
   */
  counts: Record<string, number>;
}

/**
 * A text prompt's `subtract` takes out whole regions of the mask the concept covers this much of
 * (engine/prompts/refine.ts).
 */
const WHOLE_REGION_SHARE = 0.5;

/** The refinement's model as the video matter runs it, and what it reports. */
interface Search {
  runtime: InferenceRuntime;
  manifest: ModelIo;
  /** Frames that must be keys. */
  keyframes?: ReadonlySet<number>;
  report(): Pick<RefineResult, 'counts' | 'stageSeconds'>;
  /** Frees what it keeps on disk. */
  close(): void;
}

/**
 * The concept search for a text prompt; for a click, the pre-pass backwards from the clicked frame,
 * then the tracker that goes on from it.
 */
async function openSearch(opts: RefineVideoOptions, tier: TierConfig): Promise<Search> {
  const { runtime, info, target } = opts;
  if (target.mode === 'text') {
    const openVocabulary = target.concepts.some((c) => c.kind === 'open')
      ? verifiedOpenVocabularyModel()
      : null;
    const s = conceptRuntime(runtime, {
      concepts: target.concepts,
      openVocabulary,
      ...DEFAULT_SEARCH,
    });
    const report = () => {
      const { seconds, ...counts } = s.stats;
      return { counts, stageSeconds: seconds };
    };
    return { runtime: s.runtime, manifest: CONCEPT_MODEL_IO, report, close: () => undefined };
  }
  const stats = newTrackStats();
  const before = await trackBeforeClick({
    input: opts.input,
    info,
    tier,
    click: target,
    runtime,
    scratchDir: opts.scratchDir,
    stats,
    signal: opts.signal,
  });
  const click = { frame: before.frame, points: target.points };
  const s = clickRuntime(runtime, {
    sourceWidth: info.width,
    sourceHeight: info.height,
    flowSide: tier.keyframes.flowSide,
    click,
    known: before.known,
    stats,
  });
  const report = () => {
    const { seconds, ...counts } = stats;
    return { counts, stageSeconds: { prepassDecode: before.decodeSeconds, ...seconds } };
  };
  return {
    runtime: s.runtime,
    manifest: CLICK_MODEL_IO,
    keyframes: new Set([before.frame]),
    report,
    close: () => before.close(),
  };
}

/**
 * Refines a mask by concepts or a clicked object: the original is decoded once (a click's
 * pre-pass decodes the frames up to the clicked one again), the search runs on the refinement
 * tier's keyframes and is carried between them along optical flow (the video matter), each
 * frame's alpha is fused with the same frame of the mask refined from
 * (add: max, subtract: mask × (1 − concept)), optionally edge-cleaned, and written as a new
 * FFV1 mask, one frame per frame. Memory stays bounded: decode and encode are pipes.
 */
export async function refineVideo(opts: RefineVideoOptions): Promise<RefineResult> {
  const { info } = opts;
  const tier = REFINE_TIERS[apiModel(opts.model).tier];
  if (!tier) throw new Error(`${opts.model} cannot refine masks`);
  const started = performance.now();
  const search = await openSearch(opts, tier);
  const matter = await createVideoMatter({
    runtime: search.runtime,
    manifest: search.manifest,
    tier,
    threshold: null,
    smartSampling: true,
    keyframes: search.keyframes,
  }).catch((e: unknown) => {
    search.close();
    throw e;
  });
  const writer = openMaskWriter(info, opts.maskOut);
  const stage = { decode: 0, fuse: 0 };
  // The mask frames (and lumas) of the frames the matter still holds, oldest first.
  const held: { mask: Uint8Array; luma: GrayFrame | null }[] = [];
  let frames = 0;
  const write = async (alphas: Uint8Array[]) => {
    const t = performance.now();
    for (const alpha of alphas) {
      const h = held.shift();
      if (!h) throw new Error('the matter returned more frames than it was given');
      // Clicks name exactly what to take out (excluded points included); a text prompt's boxes may
      // miss thin parts.
      if (opts.op === 'subtract' && opts.target.mode === 'text')
        takeWholeRegions(h.mask, alpha, info.width, WHOLE_REGION_SHARE);
      fuseInto(h.mask, alpha, opts.op);
      await writer.write(
        h.luma && opts.edgeCleanup ? cleanEdges(h.mask, h.luma, opts.edgeCleanup) : h.mask,
      );
      frames++;
    }
    stage.fuse += (performance.now() - t) / 1000;
    if (alphas.length) opts.onProgress?.(frames);
  };
  const video = readFrames(info, opts.input, {
    signal: opts.signal,
    workSize: workSize(tier, info.width, info.height),
  });
  const masks = readMaskFrames(opts.maskIn, info, { signal: opts.signal });
  try {
    for (;;) {
      const t = performance.now();
      const [next, mask] = await Promise.all([video.next(), masks.next()]);
      stage.decode += (performance.now() - t) / 1000;
      if (next.done !== mask.done)
        throw new MediaError('The mask refined from and the video have different frame counts.');
      if (next.done || mask.done) break;
      if (opts.signal?.aborted) throw new MediaError('The refinement was cancelled');
      held.push({ mask: mask.value, luma: opts.edgeCleanup ? grayOf(next.value) : null });
      await write(await matter.push(next.value, next.value.work));
    }
    await write(await matter.flush());
    await writer.finish();
  } catch (e) {
    writer.abort();
    throw e;
  } finally {
    // Ends the decoders (a generator's return kills its ffmpeg) when the loop stopped early.
    await Promise.all([video.return(undefined), masks.return(undefined)]);
    await matter.release();
    search.close();
  }
  if (frames === 0) throw new MediaError('The video has no decodable frames.');
  const { counts, stageSeconds } = search.report();
  return {
    frames,
    seconds: (performance.now() - started) / 1000,
    stageSeconds: {
      decode: stage.decode,
      ...stageSeconds,
      propagate: matter.stats.stageSeconds.refine,
      fuse: stage.fuse,
    },
    counts,
  };
}
