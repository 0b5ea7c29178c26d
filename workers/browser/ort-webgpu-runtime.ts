import * as ort from 'onnxruntime-web/webgpu';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession, TensorData } from '../../engine/runtime';

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
        async run(feeds, outputs) {
          const inputs: Record<string, ort.Tensor> = {};
          for (const [name, t] of Object.entries(feeds)) inputs[name] = new ort.Tensor('float32', t.data, t.dims);
          const result = await session.run(inputs, outputs);
          const out: Record<string, TensorData> = {};
          for (const name of outputs) {
            const t = result[name];
            if (!t) continue;
            if (t.type !== 'float32') throw new Error(`Model output ${name} has type ${t.type}; the engine reads float32`);
            // getData() downloads GPU-resident outputs; plain CPU tensors are returned as they are.
            out[name] = { data: ((await t.getData()) as Float32Array).slice(), dims: t.dims };
            t.dispose();
          }
          return out;
        },
        release: () => session.release(),
      };
    },
  };
}
