import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession, TensorData } from '../../engine/runtime';
import { env } from '../../lib/env';
import { modelFilePath } from '../../lib/models/resolve';

/**
 * Execution providers in order of preference: CUDA when this build lists it. The CUDA provider
 * library is an optional download at install time, so a failed CUDA start falls back to CPU.
 */
export function preferredProviders(): string[] {
  const names = ort.listSupportedBackends().map((b) => b.name);
  return names.includes('cuda') && cudaLibraryPresent() ? ['cuda', 'cpu'] : ['cpu'];
}

/** The CUDA provider ships as a separate library that only a CUDA-enabled install fetches. */
function cudaLibraryPresent(): boolean {
  try {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    const dir = path.join(pkg, 'bin', 'napi-v6', process.platform, process.arch);
    return fs.existsSync(path.join(dir, 'libonnxruntime_providers_cuda.so'));
  } catch {
    return false;
  }
}

let cudaBroken = false;

/**
 * The server's InferenceRuntime: onnxruntime-node, model files from MODELS_DIR (prepared by
 * `npm run setup`; a missing file is a clear error, never a download).
 */
export function createOrtNodeRuntime(opts: { threads?: number; providers?: string[] } = {}): InferenceRuntime {
  const wanted = opts.providers ?? preferredProviders();
  // onnxruntime's own default counts physical cores, which leaves vCPUs idle on most VMs.
  const threads = opts.threads ?? (env().ORT_THREADS || os.availableParallelism());
  const create = (file: string, providers: string[]) =>
    ort.InferenceSession.create(file, {
      executionProviders: providers,
      graphOptimizationLevel: 'all',
      // The arena keeps ISNet's peak intermediates (~700 MB at 1024²) between frames; without it
      // a worker on 1080p stays near 1 GB instead of 1.6 GB (docs/engine.md); 48 frames took
      // 47 s instead of 44 s, within this machine's noise.
      enableCpuMemArena: false,
      logSeverityLevel: 4,
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
    });
  const runtime = {
    name: `onnxruntime-node (${wanted[0]})`,
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const file = modelFilePath(manifest.file);
      let session: ort.InferenceSession;
      if (wanted.includes('cuda') && !cudaBroken) {
        try {
          session = await create(file, wanted);
        } catch {
          cudaBroken = true;
          runtime.name = 'onnxruntime-node (cpu)';
          session = await create(file, wanted.filter((p) => p !== 'cuda'));
        }
      } else session = await create(file, wanted.filter((p) => p !== 'cuda'));
      return {
        async run(feeds, outputs) {
          const inputs: Record<string, ort.Tensor> = {};
          for (const [name, t] of Object.entries(feeds)) inputs[name] = new ort.Tensor('float32', t.data, t.dims);
          const res = await session.run(inputs, outputs);
          const out: Record<string, TensorData> = {};
          for (const name of outputs) {
            const t = res[name];
            if (!t) continue;
            out[name] = { data: toFloat32(t), dims: t.dims };
            t.dispose();
          }
          return out;
        },
        release: () => session.release(),
      };
    },
  };
  return runtime;
}

function toFloat32(t: ort.Tensor): Float32Array {
  if (t.type === 'float32') return (t.data as Float32Array).slice();
  throw new Error(`Model output has type ${t.type}; the engine reads float32 outputs`);
}
