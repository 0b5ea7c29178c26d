import * as ort from 'onnxruntime-web/webgpu';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession } from '../../engine/runtime';
import { runFloat32 } from '../ort-run';

/**
 * The InferenceRuntime on a real GPU: onnxruntime-web's WebGPU execution provider. Loaded
 * (dynamically, by segment.worker.ts) only when the page found a hardware WebGPU adapter; the
 * WASM runtime (ort-web-runtime.ts) serves everyone else. Same model files, same origin.
 */
export function createOrtWebGpuRuntime(opts: { modelBaseUrl: string; wasmPaths: string }): InferenceRuntime {
  ort.env.wasm.wasmPaths = opts.wasmPaths;
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  const base = opts.modelBaseUrl.endsWith('/') ? opts.modelBaseUrl : `${opts.modelBaseUrl}/`;
  return {
    name: 'onnxruntime-web (webgpu)',
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const url = `${base}${manifest.file}`;
      const res = await fetch(url);
      if (!res.ok) throw new Error(`Model ${manifest.id} could not be loaded from ${url} (HTTP ${res.status})`);
      const session = await ort.InferenceSession.create(new Uint8Array(await res.arrayBuffer()), {
        executionProviders: ['webgpu'],
        graphOptimizationLevel: 'all',
      });
      return {
        run: (feeds, outputs) => runFloat32(ort.Tensor, session, feeds, outputs),
        release: () => session.release(),
      };
    },
  };
}
