/**
 * The Studio's whole run on the user's machine: decode the local file with WebCodecs
 * (mediabunny), segment each frame in the worker (client.ts), and encode (studio-encoder.ts)
 * the cut-out, which every further file is made from (studio-exports.ts), and the chosen opaque
 * result when there is one. The three overlap: while the worker segments one frame the page
 * decodes and reads back the next and encodes the one before, and one more frame waits in the
 * worker's queue so it never idles. Frames stream through: none is held after it is encoded.
 */
import {
  ALL_FORMATS,
  BlobSource,
  CanvasSink,
  canEncodeVideo,
  Input,
  QUALITY_HIGH,
} from 'mediabunny';
import type { ApiModel, MatterStats } from '../../engine';
import { type BackendChoice, type Matted, type PeopleModel, SegmentClient } from './client';
import {
  backgroundCompositor,
  cutoutEncoder,
  type FrameEncoder,
  onBackgroundEncoder,
  type StudioBackground,
} from './studio-encoder';
import type { StudioCutout } from './studio-exports';

export interface StudioProgress {
  framesDone: number;
  /** Estimated from the container's packet count. */
  framesTotal: number;
  /** Frames per second over the run so far. */
  fps: number;
  etaSeconds: number | null;
}

/**
 * What the run makes besides the cut-out: nothing more, or the subject on a background as MP4 or
 * WebM.
 */
export type StudioOpaque = { container: 'mp4' | 'webm'; background: StudioBackground };

export interface StudioResult {
  /** The result file: the cut-out itself, or the chosen opaque video. */
  file: Blob;
  /**
   * The transparent cut-out (VP9 with alpha, with the sound), which further files are made from.
   */
  cutout: StudioCutout;
  thumbnail: Blob;
  frames: number;
  width: number;
  height: number;
  durationSeconds: number;
  backend: SegmentClient['backend'];
  runtime: string;
  /** Which model ran, and why (people: RVM where this device runs it fast enough). */
  modelName: string;
  modelReason: string;
  /** Wall time of the whole run, model load included. */
  totalMs: number;
  /**
   * Mean time the worker was busy with one frame (engine, writing the alpha back, the edges'
   * colour).
   */
  meanFrameMs: number;
  modelLoadMs: number;
  /** Engine totals: how many frames ran the model, and the time in inference vs refinement. */
  engine: MatterStats;
  profile: StudioProfile;
}

/**
 * Mean milliseconds per frame in each stage. The page's stages (decode, read-back, encode)
 * overlap the worker's (model, refinement, write-back), so the stages add up to more than
 * `endToEndMs`, the wall time of the frame loop per frame.
 */
export interface StudioProfile {
  frames: number;
  /** Waiting for the decoder's next frame (WebCodecs decode + drawing it to a canvas). */
  decodeMs: number;
  /** getImageData: the frame's RGBA out of the canvas, and its working-size copy. */
  readbackMs: number;
  /** The engine's model runs (input tensor, onnxruntime, output decoding). */
  inferMs: number;
  /** The engine's refinement (resampling, main subject, guided filter, full-resolution alpha). */
  refineMs: number;
  /**
   * The worker's time besides the engine: messages, writing the alpha into the frame, the edges'
   * colour.
   */
  workerOtherMs: number;
  /** Handing frames to the encoder (waits only when the encoder falls behind). */
  encodeMs: number;
  /** The page waiting for the worker's result. */
  waitMs: number;
  /** Finishing the file after the last frame, per frame. */
  finalizeMs: number;
  endToEndMs: number;
}

export interface StudioRun {
  file: File;
  model: ApiModel;
  backend: BackendChoice;
  /** service-human: force a people model instead of deciding by measurement on this device. */
  people?: PeopleModel | null;
  signal: AbortSignal;
  /** Null: the transparent cut-out is the result; otherwise also this opaque video. */
  opaque?: StudioOpaque | null;
  /** Stop after this many frames (a quick look at the first frame). */
  maxFrames?: number;
  onStarted?: (info: StudioStarted) => void;
  onFallback?: (reason: string) => void;
  onProgress?: (p: StudioProgress) => void;
  /** A matted frame now and then (about 4 per second), for the live preview. */
  onPreview?: (frame: ImageData) => void;
}

export interface StudioStarted {
  backend: SegmentClient['backend'];
  runtime: string;
  modelName: string;
  modelReason: string;
}

export class StudioError extends Error {
  override name = 'StudioError';
  constructor(
    message: string,
    /** True when the server could do what this browser cannot (e.g. HEVC decoding). */
    readonly serverCanHelp = false,
  ) {
    super(message);
  }
}

function checkAbort(signal: AbortSignal) {
  if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
}

async function toPng(frame: ImageData): Promise<Blob> {
  const canvas = new OffscreenCanvas(frame.width, frame.height);
  canvas.getContext('2d')!.putImageData(frame, 0, 0);
  return canvas.convertToBlob({ type: 'image/png' });
}

/**
 * The file's video track and its frame size and count, refused early when this browser cannot
 * decode it or encode the chosen result.
 */
async function openVideoTrack(run: StudioRun, input: Input) {
  const track = await input.getPrimaryVideoTrack().catch(() => null);
  if (!track)
    throw new StudioError(
      'This file has no video this browser can read. Try an MP4 (H.264) or WebM file.',
      true,
    );
  if (!(await track.canDecode())) {
    const codec = (await track.getCodecParameterString()) ?? 'this codec';
    throw new StudioError(
      `This browser cannot decode ${codec} video (HEVC is a common ` +
        'case). The server can process it.',
      true,
    );
  }
  // VP9 wants even dimensions; a 1-pixel crop is invisible.
  const width = (await track.getDisplayWidth()) & ~1;
  const height = (await track.getDisplayHeight()) & ~1;
  // Checked before the model loads: a browser built without the encoder says so at once.
  if (
    run.opaque &&
    !run.maxFrames &&
    !(await canEncodeVideo(run.opaque.container === 'mp4' ? 'avc' : 'vp9', {
      width,
      height,
      quality: QUALITY_HIGH,
    }))
  ) {
    const codec = run.opaque.container === 'mp4' ? 'H.264' : 'VP9';
    throw new StudioError(
      `This browser cannot encode ${codec} video. Choose the ` +
        'transparent WebM here, or let the server make the ' +
        `${run.opaque.container.toUpperCase()}.`,
      true,
    );
  }
  const stats = await track.computePacketStats(100);
  const duration = await track.computeDuration();
  const framesTotal = Math.min(
    run.maxFrames ?? Infinity,
    Math.max(1, Math.round(stats.averagePacketRate * duration) || stats.packetCount),
  );
  return { track, width, height, stats, duration, framesTotal };
}

/** A full run's thumbnail looks like its result: on its background when it has one. */
function thumbnailOf(run: StudioRun, frame: ImageData): Promise<Blob> {
  if (!run.opaque || run.maxFrames) return toPng(frame);
  return backgroundCompositor(
    frame.width,
    frame.height,
    run.opaque.background,
  )(frame.data).convertToBlob({ type: 'image/png' });
}

/** Where a frame's time went: each stage of the page and the worker, per frame. */
function profileOf(
  done: number,
  stage: Record<'decode' | 'readback' | 'encode' | 'wait' | 'finalize', number>,
  e: MatterStats,
  workerBusyMs: number,
  loopMs: number,
): StudioProfile {
  const per = (ms: number) => ms / done;
  return {
    frames: done,
    decodeMs: per(stage.decode),
    readbackMs: per(stage.readback),
    inferMs: per(e.stageSeconds.infer * 1000),
    refineMs: per(e.stageSeconds.refine * 1000),
    workerOtherMs: per(
      Math.max(0, workerBusyMs - (e.stageSeconds.infer + e.stageSeconds.refine) * 1000),
    ),
    encodeMs: per(stage.encode),
    waitMs: per(stage.wait),
    finalizeMs: per(stage.finalize),
    endToEndMs: per(loopMs),
  };
}

export async function runStudio(run: StudioRun): Promise<StudioResult> {
  const t0 = performance.now();
  const input = new Input({ source: new BlobSource(run.file), formats: ALL_FORMATS });
  let client: SegmentClient | null = null;
  try {
    const { track, width, height, stats, duration, framesTotal } = await openVideoTrack(run, input);

    client = await SegmentClient.start(
      run.model,
      run.backend,
      { people: run.people ?? null, frame: { width, height } },
      run.onFallback,
    );
    run.onStarted?.({
      backend: client.backend,
      runtime: client.runtime,
      modelName: client.modelName,
      modelReason: client.modelReason,
    });
    checkAbort(run.signal);

    const frameRate = stats.averagePacketRate || undefined;
    // A first-frame preview encodes nothing.
    const setup = { width, height, frameRate, input, signal: run.signal };
    const cutout = run.maxFrames ? null : await cutoutEncoder(setup);
    const opaque =
      run.maxFrames || !run.opaque ? null : await onBackgroundEncoder({ ...setup, ...run.opaque });
    const encoders = [cutout, opaque].filter((e): e is FrameEncoder => e !== null);
    const sink = new CanvasSink(track, { width, height, fit: 'fill', poolSize: 3 });
    // The engine's working-size copy of each frame, scaled by the canvas (the engine would scale it
    // in JS).
    const [ww, wh] = client.workSize;
    const small = new OffscreenCanvas(ww, wh).getContext('2d', { willReadFrequently: true })!;
    small.imageSmoothingQuality = 'medium';
    const frames = sink.canvases();
    const stage = { decode: 0, readback: 0, encode: 0, wait: 0, finalize: 0 };
    const loopStart = performance.now();
    let done = 0;
    let sent = 0;
    let engine: MatterStats | null = null;
    let workerBusyMs = 0;
    let lastPreview = 0;
    let thumbnail: ImageData | null = null;
    let steadyStart = 0;
    // The engine returns a frame's matte only once it has seen the keyframes after it; one more
    // frame in flight keeps the worker busy while the page encodes and decodes.
    const depth = client.latency + 2;
    const inFlight: { matted: Promise<Matted>; timestamp: number; duration: number }[] = [];
    // Encodes run one after another in the background; the loop waits only on a full encoder.
    let encoding: Promise<void> = Promise.resolve();
    const take = async () => {
      const { matted: pendingMatte, timestamp, duration: frameDuration } = inFlight.shift()!;
      let t = performance.now();
      const matted = await pendingMatte;
      stage.wait += performance.now() - t;
      workerBusyMs = matted.busyMs;
      engine = matted.stats;
      const rgba = new Uint8ClampedArray(matted.rgba);
      done++;
      const now = performance.now();
      if (!thumbnail && (done === 1 || done >= Math.min(12, framesTotal)))
        thumbnail = new ImageData(rgba.slice(), width, height);
      if (done === 1 || now - lastPreview > 250) {
        lastPreview = now;
        run.onPreview?.(new ImageData(rgba.slice(), width, height));
      }
      if (encoders.length) {
        t = performance.now();
        await encoding;
        // Both encoders read the same frame; neither writes into it.
        encoding = Promise.all(encoders.map((e) => e.add(rgba, timestamp, frameDuration))).then(
          () => undefined,
        );
        stage.encode += performance.now() - t;
      }
      // Speed and ETA from the second frame on: the first one carries warm-up costs.
      if (done === 1) steadyStart = now;
      const fps = done > 1 ? (done - 1) / Math.max(0.001, (now - steadyStart) / 1000) : 0;
      run.onProgress?.({
        framesDone: done,
        framesTotal: Math.max(framesTotal, done),
        fps,
        etaSeconds: done > 2 ? Math.max(0, (framesTotal - done) / fps) : null,
      });
    };
    let next = frames.next();
    while (sent < framesTotal || !run.maxFrames) {
      let t = performance.now();
      const item = await next;
      stage.decode += performance.now() - t;
      if (item.done) break;
      checkAbort(run.signal);
      const { canvas, timestamp, duration: frameDuration } = item.value;
      t = performance.now();
      const ctx = (canvas as OffscreenCanvas).getContext('2d', {
        willReadFrequently: true,
      }) as OffscreenCanvasRenderingContext2D;
      const pixels = ctx.getImageData(0, 0, width, height);
      small.drawImage(canvas, 0, 0, ww, wh);
      const work = small.getImageData(0, 0, ww, wh);
      stage.readback += performance.now() - t;
      next = frames.next(); // decode ahead while the worker segments this frame
      const matted = client.segment(pixels.data.buffer, width, height, work);
      // awaited in order by take(); don't report it unhandled meanwhile
      matted.catch(() => undefined);
      inFlight.push({ matted, timestamp, duration: frameDuration });
      sent++;
      while (inFlight.length >= depth) await take();
      if (run.maxFrames && sent >= run.maxFrames) break;
    }
    client.flush();
    while (inFlight.length) {
      checkAbort(run.signal);
      await take();
    }
    await frames.return();
    if (done === 0) throw new StudioError('No frames could be decoded from this file.', true);
    const t = performance.now();
    await encoding;
    const [cutoutFile, opaqueFile] = await Promise.all([cutout?.finish(), opaque?.finish()]);
    stage.finalize = performance.now() - t;
    const fps = frameRate ?? done / Math.max(duration, 1e-3);
    const empty = new Blob([], { type: 'video/webm' });
    return {
      file: opaqueFile ?? cutoutFile ?? empty,
      cutout: {
        file: cutoutFile ?? empty,
        width,
        height,
        // Whole thousandths of a frame per second: the rate ffmpeg.wasm puts the cut-out's frames
        // on.
        fpsRational: `${Math.round(fps * 1000)}/1000`,
        frames: done,
        hasAudio: cutout?.hasAudio ?? false,
      },
      thumbnail: await thumbnailOf(run, thumbnail!),
      frames: done,
      width,
      height,
      durationSeconds: duration,
      backend: client.backend,
      runtime: client.runtime,
      modelName: client.modelName,
      modelReason: client.modelReason,
      totalMs: performance.now() - t0,
      meanFrameMs: workerBusyMs / done,
      modelLoadMs: client.loadMs,
      engine: engine!,
      profile: profileOf(done, stage, engine!, workerBusyMs, performance.now() - loopStart),
    };
  } finally {
    client?.close();
    input.dispose();
  }
}
