/**
 * The Studio's whole run on the user's machine: decode the local file with WebCodecs
 * (mediabunny), segment each frame in the worker (client.ts), and encode a VP9 WebM with alpha
 * (mediabunny writes the alpha as VP9's side stream; WebCodecs alone refuses alpha: 'keep').
 * Decoding of the next frame overlaps the worker's inference of the current one.
 */
import { ALL_FORMATS, BlobSource, BufferTarget, CanvasSink, Input, Output, QUALITY_HIGH, VideoSample, VideoSampleSource, WebMOutputFormat } from 'mediabunny';
import type { ApiModel, MatterStats } from '../../engine';
import { type BackendChoice, type Matted, SegmentClient } from './client';

export interface StudioProgress {
  framesDone: number;
  /** Estimated from the container's packet count. */
  framesTotal: number;
  /** Frames per second over the run so far. */
  fps: number;
  etaSeconds: number | null;
}

export interface StudioResult {
  webm: Blob;
  thumbnail: Blob;
  frames: number;
  width: number;
  height: number;
  durationSeconds: number;
  backend: SegmentClient['backend'];
  runtime: string;
  /** Wall time of the whole run, model load included. */
  totalMs: number;
  /** Mean time of one frame in the worker (engine + inference). */
  meanFrameMs: number;
  modelLoadMs: number;
  /** Engine totals: how many frames ran the model, and the time in inference vs refinement. */
  engine: MatterStats;
}

export interface StudioRun {
  file: File;
  model: ApiModel;
  backend: BackendChoice;
  signal: AbortSignal;
  /** Stop after this many frames (a quick look at the first frame). */
  maxFrames?: number;
  onStarted?: (info: { backend: SegmentClient['backend']; runtime: string }) => void;
  onFallback?: (reason: string) => void;
  onProgress?: (p: StudioProgress) => void;
  /** A matted frame now and then (about 4 per second), for the live preview. */
  onPreview?: (frame: ImageData) => void;
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

export async function runStudio(run: StudioRun): Promise<StudioResult> {
  const t0 = performance.now();
  const input = new Input({ source: new BlobSource(run.file), formats: ALL_FORMATS });
  let client: SegmentClient | null = null;
  try {
    const track = await input.getPrimaryVideoTrack().catch(() => null);
    if (!track) throw new StudioError('This file has no video this browser can read. Try an MP4 (H.264) or WebM file.', true);
    if (!(await track.canDecode())) {
      const codec = (await track.getCodecParameterString()) ?? 'this codec';
      throw new StudioError(`This browser cannot decode ${codec} video (HEVC is a common case). The server can process it.`, true);
    }
    // VP9 wants even dimensions; a 1-pixel crop is invisible.
    const width = (await track.getDisplayWidth()) & ~1;
    const height = (await track.getDisplayHeight()) & ~1;
    const stats = await track.computePacketStats(100);
    const duration = await track.computeDuration();
    const framesTotal = Math.min(run.maxFrames ?? Infinity, Math.max(1, Math.round(stats.averagePacketRate * duration) || stats.packetCount));

    client = await SegmentClient.start(run.model, run.backend, run.onFallback);
    run.onStarted?.({ backend: client.backend, runtime: client.runtime });
    checkAbort(run.signal);

    const encode = !run.maxFrames;
    const target = new BufferTarget();
    const output = new Output({ format: new WebMOutputFormat(), target });
    const source = new VideoSampleSource({ codec: 'vp9', bitrate: QUALITY_HIGH, alpha: 'keep', keyFrameInterval: 2 });
    if (encode) {
      output.addVideoTrack(source, { frameRate: stats.averagePacketRate || undefined });
      await output.start();
    }

    const sink = new CanvasSink(track, { width, height, fit: 'fill', poolSize: 3 });
    const frames = sink.canvases();
    let next = frames.next();
    let done = 0;
    let sent = 0;
    let workerMs = 0;
    let engine: MatterStats | null = null;
    let lastPreview = 0;
    let thumbnail: ImageData | null = null;
    let steadyStart = 0;
    // The engine returns a frame's matte only once it has seen the keyframes after it.
    const inFlight: { matted: Promise<Matted>; timestamp: number; duration: number }[] = [];
    const take = async () => {
      const { matted: pendingMatte, timestamp, duration: frameDuration } = inFlight.shift()!;
      const matted = await pendingMatte;
      workerMs += matted.ms;
      engine = matted.stats;
      const rgba = new Uint8ClampedArray(matted.rgba);
      if (encode) {
        const sample = new VideoSample(rgba, { format: 'RGBA', codedWidth: width, codedHeight: height, timestamp, duration: frameDuration });
        await source.add(sample);
        sample.close();
      }
      done++;
      const now = performance.now();
      if (!thumbnail && (done === 1 || done >= Math.min(12, framesTotal))) thumbnail = new ImageData(rgba.slice(), width, height);
      if (done === 1 || now - lastPreview > 250) {
        lastPreview = now;
        run.onPreview?.(new ImageData(rgba, width, height));
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
    while (sent < framesTotal || !run.maxFrames) {
      const item = await next;
      if (item.done) break;
      checkAbort(run.signal);
      const { canvas, timestamp, duration: frameDuration } = item.value;
      const ctx = (canvas as OffscreenCanvas).getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D;
      const pixels = ctx.getImageData(0, 0, width, height);
      next = frames.next(); // decode ahead while the worker segments this frame
      const matted = client.segment(pixels.data.buffer, width, height);
      matted.catch(() => undefined); // awaited in order by take(); don't report it unhandled meanwhile
      inFlight.push({ matted, timestamp, duration: frameDuration });
      sent++;
      while (inFlight.length > client.latency) await take();
      if (run.maxFrames && sent >= run.maxFrames) break;
    }
    client.flush();
    while (inFlight.length) {
      checkAbort(run.signal);
      await take();
    }
    await frames.return();
    if (done === 0) throw new StudioError('No frames could be decoded from this file.', true);
    if (encode) {
      source.close();
      await output.finalize();
    }
    return {
      webm: new Blob(encode && target.buffer ? [target.buffer] : [], { type: 'video/webm' }),
      thumbnail: await toPng(thumbnail!),
      frames: done,
      width,
      height,
      durationSeconds: duration,
      backend: client.backend,
      runtime: client.runtime,
      totalMs: performance.now() - t0,
      meanFrameMs: workerMs / done,
      modelLoadMs: client.loadMs,
      engine: engine!,
    };
  } finally {
    client?.close();
    input.dispose();
  }
}
