/**
 * The main-thread facade of the Studio's segmentation worker: picks the backend (WebGPU on a
 * real GPU, WASM otherwise), starts the worker, transfers frame buffers both ways, falls back
 * from WebGPU to WASM when the GPU path fails to start, and turns a crashed worker into an
 * error the page can answer with "process it on the server instead".
 */
import type { ApiModel, MatterStats, PeopleModel } from '../../engine';
import type { Backend, FromWorker, ToWorker, WorkerReady } from './protocol';

export type { Backend } from './protocol';
export type { PeopleModel } from '../../engine';

export interface BackendChoice {
  backend: Backend;
  /** In words, for the page: why this backend. */
  reason: string;
}

/** Thrown when the worker itself dies (out of memory, a crash in WebAssembly…). */
export class WorkerCrashedError extends Error {
  override name = 'WorkerCrashedError';
}

type GpuAdapterLike = {
  info?: {
    isFallbackAdapter?: boolean;
    vendor?: string;
    architecture?: string;
    description?: string;
  };
  isFallbackAdapter?: boolean;
};
type GpuLike = {
  requestAdapter(opts?: { powerPreference?: string }): Promise<GpuAdapterLike | null>;
};

/**
 * WebGPU only when the adapter is real hardware: Chromium without a GPU offers SwiftShader as
 * a *fallback* adapter, which runs the model ~100x slower than WASM.
 */
export async function chooseBackend(force?: Backend | null): Promise<BackendChoice> {
  if (force === 'wasm') return { backend: 'wasm', reason: 'WebAssembly was requested.' };
  const gpu = (navigator as Navigator & { gpu?: GpuLike }).gpu;
  if (!gpu) {
    if (force === 'webgpu')
      throw new Error('WebGPU was requested, but this browser does not offer it.');
    return {
      backend: 'wasm',
      reason: 'This browser does not offer WebGPU, so the model runs on the CPU with WebAssembly.',
    };
  }
  let adapter: GpuAdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  const fallback = Boolean(adapter?.info?.isFallbackAdapter ?? adapter?.isFallbackAdapter);
  if (force === 'webgpu') {
    if (!adapter) throw new Error('WebGPU was requested, but no adapter is available.');
    return {
      backend: 'webgpu',
      reason: fallback ? 'WebGPU was requested (software adapter: slow).' : 'WebGPU was requested.',
    };
  }
  if (!adapter)
    return {
      backend: 'wasm',
      reason: 'No WebGPU adapter is available, so the model runs on the CPU with WebAssembly.',
    };
  if (fallback) {
    return {
      backend: 'wasm',
      reason:
        'Only a software WebGPU adapter is available (no GPU), so the ' +
        'model runs on the CPU with WebAssembly.',
    };
  }
  const name = [adapter.info?.vendor, adapter.info?.architecture].filter(Boolean).join(' ');
  return {
    backend: 'webgpu',
    reason: `Running on your GPU with WebGPU${name ? ` (${name})` : ''}.`,
  };
}

export interface Matted {
  rgba: ArrayBuffer;
  width: number;
  height: number;
  /** The worker's time on frames so far, all frames together. */
  busyMs: number;
  /** The engine's running totals: frames, inferences, seconds in inference and refinement. */
  stats: MatterStats;
}

export class SegmentClient {
  private nextId = 1;
  private pending = new Map<number, { resolve: (m: Matted) => void; reject: (e: Error) => void }>();
  private crashed: Error | null = null;

  readonly backend: Backend;
  readonly runtime: string;
  readonly loadMs: number;
  readonly latency: number;
  readonly workSize: [number, number];
  readonly modelName: string;
  readonly modelReason: string;

  private constructor(
    private readonly worker: Worker,
    ready: WorkerReady,
  ) {
    ({
      backend: this.backend,
      runtime: this.runtime,
      loadMs: this.loadMs,
      latency: this.latency,
      workSize: this.workSize,
      modelName: this.modelName,
      modelReason: this.modelReason,
    } = ready);
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.receive(e.data);
    worker.onerror = (e) =>
      this.fail(new WorkerCrashedError(e.message || 'The processing worker stopped unexpectedly.'));
  }

  /** Starts a worker on the chosen backend; a WebGPU start that fails is retried on WASM. */
  static async start(
    model: ApiModel,
    choice: BackendChoice,
    video: Pick<Extract<ToWorker, { type: 'init' }>, 'people' | 'frame'>,
    onFallback?: (reason: string) => void,
  ): Promise<SegmentClient> {
    try {
      return await SegmentClient.startOn(model, choice.backend, video);
    } catch (err) {
      if (choice.backend !== 'webgpu') throw err;
      onFallback?.(
        `WebGPU could not start (${(err as Error).message}); using WebAssembly instead.`,
      );
      return SegmentClient.startOn(model, 'wasm', video);
    }
  }

  private static startOn(
    model: ApiModel,
    backend: Backend,
    video: { people: PeopleModel | null; frame: { width: number; height: number } },
  ): Promise<SegmentClient> {
    const worker = new Worker(new URL('./segment.worker.ts', import.meta.url), {
      type: 'module',
      name: `keyout-segment-${backend}`,
    });
    return new Promise((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<FromWorker>) => {
        const msg = e.data;
        if (msg.type === 'ready') resolve(new SegmentClient(worker, msg));
        else if (msg.type === 'error') {
          worker.terminate();
          reject(new Error(msg.message));
        }
      };
      worker.onerror = (e) => {
        worker.terminate();
        reject(new WorkerCrashedError(e.message || 'The processing worker could not start.'));
      };
      const init: ToWorker = {
        type: 'init',
        model,
        backend,
        ...video,
        modelBaseUrl: '/models/',
        wasmPaths: '/vendor/ort/',
      };
      worker.postMessage(init);
    });
  }

  /**
   * Segments one RGBA frame, optionally with the same frame at `workSize`; the buffers are
   * transferred (unusable here until the frame comes back). The promise settles up to `latency`
   * frames later, or after `flush()`.
   */
  segment(
    rgba: ArrayBuffer,
    width: number,
    height: number,
    work: ImageData | null = null,
  ): Promise<Matted> {
    if (this.crashed) return Promise.reject(this.crashed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const msg: ToWorker = {
        type: 'frame',
        id,
        width,
        height,
        rgba,
        work: work && { rgba: work.data.buffer, width: work.width, height: work.height },
      };
      this.worker.postMessage(msg, work ? [rgba, work.data.buffer] : [rgba]);
    });
  }

  /** Asks for every frame still held (call after the last frame). */
  flush(): void {
    this.worker.postMessage({ type: 'flush' } satisfies ToWorker);
  }

  reset(): void {
    this.worker.postMessage({ type: 'reset' } satisfies ToWorker);
  }

  close(): void {
    this.fail(new Error('Cancelled'));
    this.worker.terminate();
  }

  private receive(msg: FromWorker): void {
    if (msg.type === 'matted') {
      this.pending.get(msg.id)?.resolve({
        rgba: msg.rgba,
        width: msg.width,
        height: msg.height,
        busyMs: msg.busyMs,
        stats: msg.stats,
      });
      this.pending.delete(msg.id);
    } else if (msg.type === 'error' && msg.id !== null) {
      this.pending.get(msg.id)?.reject(new Error(msg.message));
      this.pending.delete(msg.id);
    }
  }

  private fail(err: Error): void {
    this.crashed ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
