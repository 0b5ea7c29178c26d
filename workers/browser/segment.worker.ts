/// <reference lib="webworker" />
/**
 * The Studio's segmentation worker: only switches on the typed protocol (protocol.ts). The
 * engine does the work; the runtime is WebGPU or WASM as the page asked.
 */
import { createVideoMatter, tierFor, type VideoMatter } from '../../engine';
import type { Backend, FromWorker, ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let matter: VideoMatter | null = null;
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

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      const t0 = performance.now();
      try {
        const runtime = await runtimeFor(msg.backend, msg.modelBaseUrl, msg.wasmPaths);
        const { tier, manifest } = tierFor(msg.model);
        await matter?.release();
        matter = await createVideoMatter({ runtime, manifest, tier, threshold: null, smartSampling: true });
        post({ type: 'ready', backend: msg.backend, runtime: runtime.name, loadMs: performance.now() - t0 });
      } catch (err) {
        post({ type: 'error', id: null, phase: 'init', message: (err as Error).message || String(err) });
      }
      return;
    }
    case 'frame': {
      if (!matter) return post({ type: 'error', id: msg.id, phase: 'frame', message: 'The engine is not loaded' });
      const t0 = performance.now();
      try {
        const rgba = new Uint8Array(msg.rgba);
        const alpha = await matter.process({ data: rgba, width: msg.width, height: msg.height });
        for (let i = 0, p = 3; i < alpha.length; i++, p += 4) rgba[p] = alpha[i]!;
        post({ type: 'matted', id: msg.id, width: msg.width, height: msg.height, rgba: msg.rgba, ms: performance.now() - t0, stats: structuredClone(matter.stats) }, [msg.rgba]);
      } catch (err) {
        post({ type: 'error', id: msg.id, phase: 'frame', message: (err as Error).message || String(err) });
      }
      return;
    }
    case 'reset':
      matter?.reset();
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
