import type { MediaInfo } from '../../engine/media/types';
import { tierFor } from '../../engine/models/registry';
import type { ModelManifest } from '../../engine/models/manifest';
import type { ApiModel } from '../../engine/api-models';
import { withPreset, type EnginePreset } from '../../engine/presets';
import type { InferenceRuntime } from '../../engine/runtime';
import type { TierConfig } from '../../engine/tiers';
import { createVideoMatter, workSize } from '../../engine/video-matter';
import { MediaError } from '../media/ffmpeg';
import type { RenderedOutput } from '../media/render';
import { durationTolerance } from '../media/probe';
import { allManifests } from '../models/manifests';
import { readFrames } from './frame-reader';
import { openMaskWriter } from './mask-writer';
import {
  startStreamedRender,
  streamedAt,
  type RenderWhileSegmenting,
} from './render-while-segmenting';
import { type PreviewImage, PreviewSampler } from './preview';
import { isGpu } from '../inference/device';
import type { ServedRuntime } from '../inference/runtime-rpc';
import { serverRuntime } from '../inference/server-runtime';

export type { ApiModel } from '../../engine/api-models';

export interface SegmentProgress {
  framesDone: number;
  framesTotal: number;
  fps: number;
  etaSeconds: number | null;
}

export interface SegmentOptions {
  input: string;
  info: MediaInfo;
  maskOut: string;
  model: ApiModel;
  /** The start's `background.options.preset` (engine/presets.ts); none is `balanced`. */
  preset?: EnginePreset | null;
  threshold?: number | null;
  smartSampling?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: SegmentProgress) => void;
  /**
   * Gets the newest finished frame (colour with its alpha, at most 480 px on its long side) now
   * and then while segmenting, for a live preview. Called synchronously: keep it cheap.
   */
  onPreview?: (image: PreviewImage) => void;
  /** Least time between two previews; 3 s by default. */
  previewEveryMs?: number;
  /** Benchmarks only: stop after this many frames. */
  maxFrames?: number;
  /** The models; the process's own (lib/inference/server-runtime.ts) when not given. */
  runtime?: ServedRuntime;
  /**
   * An output (the job's primary) to render while segmenting, from the mask as it is written;
   * `SegmentResult.rendered` has it, or null where it must render afterwards.
   */
  render?: RenderWhileSegmenting;
}

const PROGRESS_EVERY_S = 0.5;

/**
 * Segments a probed video into its mask: ffmpeg decodes through the shared timeline filters
 * (rotation applied, constant frame rate) → the engine mattes each frame → ffmpeg writes FFV1
 * gray8 in Matroska at display size, exactly one mask frame per frame, 255 = subject.
 * Decode and encode run in their own processes behind bounded pipes, so they overlap with
 * inference and memory stays flat however long the video is.
 */
export async function segmentVideo(opts: SegmentOptions): Promise<SegmentResult> {
  const runtime = opts.runtime ?? (await serverRuntime());
  // A GPU worker runs the GPU's configuration of the tier where there is one (engine/tiers.ts).
  const { device } = await runtime.device();
  const { tier, manifest } = tierFor(opts.model, allManifests(), isGpu(device) ? 'gpu' : 'cpu');
  return segmentVideoWith({ ...opts, tier: withPreset(tier, opts.preset), manifest, runtime });
}

export interface SegmentResult {
  framesWritten: number;
  /** Frames the model ran on. */
  inferences: number;
  /**
   * Most frames decoded and not yet written at any time: bounded by the engine's latency, whatever
   * the video's length.
   */
  mostFramesHeld: number;
  seconds: number;
  stageSeconds: Record<string, number>;
  /** The engine configuration that ran (the tier, its device's variant and the preset applied). */
  tier: TierConfig;
  /**
   * The output asked for in `render`, validated; null when none was asked or it could not be made
   * meanwhile.
   */
  rendered: RenderedOutput | null;
}

/**
 * segmentVideo with an explicit engine configuration (benchmarks compare tiers and baselines,
 * and may wrap the runtime: scripts/lib-bench/cached-runtime.ts).
 */
export async function segmentVideoWith(
  opts: Omit<SegmentOptions, 'model' | 'preset' | 'runtime'> & {
    tier: TierConfig;
    manifest: ModelManifest;
    runtime?: InferenceRuntime;
  },
): Promise<SegmentResult> {
  const { info, tier, manifest } = opts;
  const started = performance.now();
  const runtime = opts.runtime ?? (await serverRuntime());
  const matter = await createVideoMatter({
    runtime,
    manifest,
    tier,
    threshold: opts.threshold ?? null,
    smartSampling: opts.smartSampling ?? true,
  });
  const streamed = opts.render
    ? await startStreamedRender(opts.input, info, opts.render, opts.signal)
    : null;
  const writer = openMaskWriter(info, opts.maskOut, streamed?.maskIn);
  const stage = { decode: 0, encode: 0 };
  const total = opts.maxFrames ? Math.min(opts.maxFrames, info.frameCount) : info.frameCount;
  let framesWritten = 0;
  let framesRead = 0;
  let mostFramesHeld = 0;
  let lastReport = 0;
  const preview = opts.onPreview
    ? new PreviewSampler(info.width, info.height, opts.previewEveryMs ?? 3000, opts.onPreview)
    : null;
  try {
    // ffmpeg scales each frame to the working resolution too: cheaper there than in JS.
    const frames = readFrames(info, opts.input, {
      signal: opts.signal,
      maxFrames: opts.maxFrames,
      workSize: workSize(tier, info.width, info.height),
    });
    const write = async (alphas: Uint8Array[]) => {
      const t = performance.now();
      for (const alpha of alphas) await writer.write(alpha);
      stage.encode += (performance.now() - t) / 1000;
      preview?.finishedFrames(alphas);
      framesWritten += alphas.length;
      const elapsed = (performance.now() - started) / 1000;
      if (opts.onProgress && elapsed - lastReport >= PROGRESS_EVERY_S) {
        lastReport = elapsed;
        opts.onProgress(progress(framesWritten, Math.max(total, framesWritten), elapsed));
      }
    };
    for (;;) {
      const t = performance.now();
      const next = await frames.next();
      stage.decode += (performance.now() - t) / 1000;
      if (next.done) break;
      if (opts.signal?.aborted) throw new MediaError('Segmentation was cancelled');
      preview?.pushed(next.value.data);
      mostFramesHeld = Math.max(mostFramesHeld, ++framesRead - framesWritten);
      await write(await matter.push(next.value, next.value.work));
    }
    await write(await matter.flush());
    await writer.finish();
  } catch (e) {
    writer.abort();
    streamed?.abort();
    throw e;
  } finally {
    await matter.release();
    // A frame this large renders after segmentation, and its VP9 encoders need the memory the
    // models hold (render-while-segmenting.ts).
    if (!streamedAt(info)) await runtime.releaseIdle?.();
  }
  try {
    if (framesWritten === 0) throw new MediaError('The video has no decodable frames.');
    if (!opts.maxFrames) assertDecodedWhole(info, framesWritten);
  } catch (e) {
    streamed?.abort();
    throw e;
  }
  const rendered = streamed ? await streamed.finish(opts.maskOut, framesWritten) : null;
  const seconds = (performance.now() - started) / 1000;
  opts.onProgress?.(progress(framesWritten, framesWritten, seconds));
  return {
    framesWritten,
    inferences: matter.stats.inferences,
    mostFramesHeld,
    seconds,
    tier,
    stageSeconds: {
      decode: stage.decode,
      infer: matter.stats.stageSeconds.infer,
      refine: matter.stats.stageSeconds.refine,
      encode: stage.encode,
    },
    rendered,
  };
}

/**
 * The job was priced by the probed duration; a file whose frames stop decoding well before it
 * (damaged data behind an intact index) fails here, so its charge is refunded, rather than
 * completing with a fraction of the video.
 */
function assertDecodedWhole(info: MediaInfo, framesWritten: number): void {
  const decoded = framesWritten / info.fps;
  if (info.duration - decoded > durationTolerance(info.duration)) {
    throw new MediaError(
      `The video could not be decoded past ${decoded.toFixed(1)} s of ` +
        `its ${info.duration.toFixed(1)} s: the file is damaged or ` +
        'incomplete.',
    );
  }
}

function progress(done: number, total: number, elapsed: number): SegmentProgress {
  const fps = elapsed > 0 ? done / elapsed : 0;
  return {
    framesDone: done,
    framesTotal: total,
    fps,
    etaSeconds: fps > 0 ? Math.max(0, (total - done) / fps) : null,
  };
}
