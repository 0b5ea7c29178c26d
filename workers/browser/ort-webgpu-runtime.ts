import * as ort from 'onnxruntime-web/webgpu';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession } from '../../engine/runtime';
import { runFloat32 } from '../../engine/ort-run';
import { fetchModel } from './fetch-model';

/**
 * The InferenceRuntime on a real GPU: onnxruntime-web's WebGPU execution provider. Loaded
 * (dynamically, by segment.worker.ts) only when the page found a hardware WebGPU adapter; the
 * WASM runtime (ort-web-runtime.ts) serves everyone else. Same model files, same origin.
 */
export function createOrtWebGpuRuntime(opts: {
  modelBaseUrl: string;
  wasmPaths: string;
}): InferenceRuntime {
  ort.env.wasm.wasmPaths = opts.wasmPaths;
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  // The WebGPU provider creates one session at a time ("another WebGPU EP inference session is
  // being created"), and stages load their models together (engine/subject): creations queue.
  let creating: Promise<unknown> = Promise.resolve();
  return {
    name: 'onnxruntime-web (webgpu)',
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const bytes = await fetchModel(opts.modelBaseUrl, manifest);
      const created = creating.then(() =>
        ort.InferenceSession.create(bytes, {
          executionProviders: ['webgpu'],
          graphOptimizationLevel: 'all',
        }),
      );
      creating = created.catch(() => undefined);
      const session = await created;
      return {
        run: (feeds, outputs) => runFloat32(ort.Tensor, session, feeds, outputs),
        release: () => session.release(),
      };
    },
  };
}
