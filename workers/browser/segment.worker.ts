/// <reference lib="webworker" />
/**
 * The Studio's segmentation worker: only switches on the typed protocol (protocol.ts). The
 * engine does the work; the runtime is WebGPU or WASM as the page asked.
 */
import { createVideoMatter, tierFor, type VideoMatter } from '../../engine';
import type { Backend, FromWorker, ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let matter: VideoMatter | null = null;
/** Frames handed to the engine whose alpha has not come back yet, oldest first. */
let inFlight: { id: number; width: number; height: number; rgba: ArrayBuffer; t0: number }[] = [];
// Frames are handled strictly one after another: the matter keeps temporal state.
let queue: Promise<void> = Promise.resolve();

const post = (msg: FromWorker, transfer: Transferable[] = []) => self.postMessage(msg, transfer);

async function runtimeFor(backend: Backend, modelBaseUrl: string, wasmPaths: string) {
  if (backend === 'webgpu') {
    const { createOrtWebGpuRuntime } = await import('./ort-webgpu-runtime');
    return createOrtWebGpuRuntime({ modelBaseUrl, wasmPaths });
  }
  const { createOrtWebRuntime } = await import('./ort-web-runtime');
  return createOrtWebRuntime({ modelBaseUrl, wasmPaths, threads: 1 });
}

/** Writes each finished alpha into its frame's buffer and sends the frame back. */
function deliver(alphas: Uint8Array[]): void {
  for (const alpha of alphas) {
    const f = inFlight.shift();
    if (!f || !matter) return;
    const rgba = new Uint8Array(f.rgba);
    for (let i = 0, p = 3; i < alpha.length; i++, p += 4) rgba[p] = alpha[i]!;
    post({ type: 'matted', id: f.id, width: f.width, height: f.height, rgba: f.rgba, ms: performance.now() - f.t0, stats: structuredClone(matter.stats) }, [f.rgba]);
  }
}

function failInFlight(message: string): void {
  for (const f of inFlight) post({ type: 'error', id: f.id, phase: 'frame', message });
  inFlight = [];
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      const t0 = performance.now();
      try {
        const runtime = await runtimeFor(msg.backend, msg.modelBaseUrl, msg.wasmPaths);
        const { tier, manifest } = tierFor(msg.model);
        await matter?.release();
        matter = await createVideoMatter({ runtime, manifest, tier, threshold: null, smartSampling: true });
        inFlight = [];
        post({ type: 'ready', backend: msg.backend, runtime: runtime.name, loadMs: performance.now() - t0, latency: matter.latency });
      } catch (err) {
        post({ type: 'error', id: null, phase: 'init', message: (err as Error).message || String(err) });
      }
      return;
    }
    case 'frame': {
      if (!matter) return post({ type: 'error', id: msg.id, phase: 'frame', message: 'The engine is not loaded' });
      inFlight.push({ id: msg.id, width: msg.width, height: msg.height, rgba: msg.rgba, t0: performance.now() });
      try {
        deliver(await matter.push({ data: new Uint8Array(msg.rgba), width: msg.width, height: msg.height }));
      } catch (err) {
        failInFlight((err as Error).message || String(err));
      }
      return;
    }
    case 'flush': {
      if (!matter) return;
      try {
        deliver(await matter.flush());
      } catch (err) {
        failInFlight((err as Error).message || String(err));
      }
      return;
    }
    case 'reset':
      matter?.reset();
      failInFlight('Reset before the frame was finished');
      return;
    case 'dispose':
      await matter?.release();
      matter = null;
      self.close();
      return;
  }
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  queue = queue.then(() => handle(e.data));
};
