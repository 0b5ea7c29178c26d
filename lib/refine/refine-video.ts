import { apiModel, type ApiModel } from '../../engine/api-models';
import type { MediaInfo } from '../../engine/media/types';
import { grayOf, type GrayFrame } from '../../engine/matte/image';
import { CONCEPT_MODEL_IO, conceptRuntime, DEFAULT_SEARCH, type ConceptStats } from '../../engine/prompts/concept-model';
import type { Concept } from '../../engine/prompts/concepts';
import { cleanEdges, fuseInto, REFINE_TIERS, takeWholeRegions, type RefineOp } from '../../engine/prompts/refine';
import { createVideoMatter, workSize } from '../../engine/video-matter';
import { serverRuntime } from '../inference/server-runtime';
import { MediaError } from '../media/ffmpeg';
import { readFrames, readMaskFrames } from '../segment/frame-reader';
import { openMaskWriter } from '../segment/mask-writer';

export interface RefineVideoOptions {
  /** The job's original and the mask version refined from (FFV1 grey). */
  input: string;
  info: MediaInfo;
  maskIn: string;
  maskOut: string;
  model: ApiModel;
  op: RefineOp;
  concepts: readonly Concept[];
  /** Processing size of the edge cleanup on the fused mask, or null for none. */
  edgeCleanup: number | null;
  signal?: AbortSignal;
  onProgress?: (framesDone: number) => void;
}

export interface RefineResult {
  frames: number;
  seconds: number;
  /** Wall seconds per stage: decode, detect, samEncode, samDecode, parts, propagate, fuse (fusion, edge cleanup, encode). */
  stageSeconds: Record<string, number>;
  concepts: Omit<ConceptStats, 'seconds'>;
}

/** `subtract` takes out whole regions of the mask the concept covers this much of (engine/prompts/refine.ts). */
const WHOLE_REGION_SHARE = 0.5;

/**
 * Refines a mask by concepts: the original is decoded once, the concept search runs on the
 * refinement tier's keyframes and is carried between them along optical flow (the video
 * matter), each frame's concept alpha is fused with the same frame of the mask refined from
 * (add: max, subtract: mask × (1 − concept)), optionally edge-cleaned, and written as a new
 * FFV1 mask, one frame per frame. Memory stays bounded: decode and encode are pipes.
 */
export async function refineVideo(opts: RefineVideoOptions): Promise<RefineResult> {
  const { info } = opts;
  const tier = REFINE_TIERS[apiModel(opts.model).tier];
  if (!tier) throw new Error(`${opts.model} cannot refine masks`);
  const started = performance.now();
  const search = conceptRuntime(await serverRuntime(), { concepts: opts.concepts, ...DEFAULT_SEARCH });
  const matter = await createVideoMatter({ runtime: search.runtime, manifest: CONCEPT_MODEL_IO, tier, threshold: null, smartSampling: true });
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
      if (opts.op === 'subtract') takeWholeRegions(h.mask, alpha, info.width, WHOLE_REGION_SHARE);
      fuseInto(h.mask, alpha, opts.op);
      await writer.write(h.luma && opts.edgeCleanup ? cleanEdges(h.mask, h.luma, opts.edgeCleanup) : h.mask);
      frames++;
    }
    stage.fuse += (performance.now() - t) / 1000;
    if (alphas.length) opts.onProgress?.(frames);
  };
  const video = readFrames(info, opts.input, { signal: opts.signal, workSize: workSize(tier, info.width, info.height) });
  const masks = readMaskFrames(opts.maskIn, info, { signal: opts.signal });
  try {
    for (;;) {
      const t = performance.now();
      const [next, mask] = await Promise.all([video.next(), masks.next()]);
      stage.decode += (performance.now() - t) / 1000;
      if (next.done !== mask.done) throw new MediaError('The mask refined from and the video have different frame counts.');
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
  }
  if (frames === 0) throw new MediaError('The video has no decodable frames.');
  const { seconds, ...concepts } = search.stats;
  return {
    frames,
    seconds: (performance.now() - started) / 1000,
    stageSeconds: { decode: stage.decode, ...seconds, propagate: matter.stats.stageSeconds.refine, fuse: stage.fuse },
    concepts,
  };
}
