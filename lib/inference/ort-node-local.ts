import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { InferenceRuntime, InferenceSession, ModelFile } from '../../engine/runtime';
import { modelFilePath } from '../models/resolve';
import { runFloat32 } from '../../engine/ort-run';
import { freeBatchDim } from './batch-dim';
import { batchable } from './batching';

export interface LocalOrtOptions {
  threads: number;
  /** ORT_EXECUTION_PROVIDER. */
  provider: 'cpu' | 'cuda';
  /** ORT_CUDA_DEVICE. */
  device: number;
  /** Keyframes per model run (ORT_BATCH): above 1, batchable models are loaded with a free batch dimension. */
  batch: number;
}

/** The CUDA provider ships as a separate library that only a CUDA-enabled install fetches. */
function cudaLibrary(): string | null {
  try {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    const lib = path.join(pkg, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so');
    return fs.existsSync(lib) ? lib : null;
  } catch {
    return null;
  }
}

/**
 * onnxruntime-node on the calling thread, on the execution provider ORT_EXECUTION_PROVIDER
 * names: "cpu" (the default, and the tested path), or "cuda" when onnxruntime-node's CUDA
 * provider library is installed (docs/operations.md, GPU workers). CUDA asked for but missing,
 * or failing to start a session, falls back to the CPU for good and says so. The first model
 * load logs one line saying which provider runs. Model files come from MODELS_DIR; a missing one
 * is a clear error, never a download. Used inside the inference thread (ort-thread.ts): run()
 * blocks the thread that calls it.
 */
export function createLocalOrtNodeRuntime(opts: LocalOrtOptions): InferenceRuntime {
  let cuda = false;
  if (opts.provider === 'cuda') {
    const lib = cudaLibrary();
    cuda = lib !== null && ort.listSupportedBackends().some((b) => b.name === 'cuda');
    if (!cuda) {
      console.error(
        `[inference] ORT_EXECUTION_PROVIDER=cuda, but onnxruntime-node's CUDA provider ${lib ? 'does not load' : 'library is not installed'}: running on the CPU (docs/operations.md, GPU workers).`,
      );
    }
  }
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    const where = cuda ? `CUDA execution provider on GPU ${opts.device}` : `CPU execution provider, ${opts.threads} thread${opts.threads === 1 ? '' : 's'}`;
    console.log(`[inference] onnxruntime-node ${ort.env.versions.common}: ${where}; keyframes per model run: ${opts.batch}`);
  };
  const create = (model: string | Uint8Array, providers: ort.InferenceSession.ExecutionProviderConfig[]) => {
    const options: ort.InferenceSession.SessionOptions = {
      executionProviders: providers,
      graphOptimizationLevel: 'all',
      // The arena keeps ISNet's peak intermediates (~700 MB at 1024²) between frames; without it
      // a worker on 1080p stays near 1 GB instead of 1.6 GB (docs/engine.md).
      enableCpuMemArena: false,
      logSeverityLevel: 4,
      intraOpNumThreads: opts.threads,
      interOpNumThreads: 1,
      // Idle pool threads spin-wait by default, taking the cores the main thread is refining
      // other frames on meanwhile: service-human ran at 29 fps spinning, 40 fps without.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    };
    return typeof model === 'string' ? ort.InferenceSession.create(model, options) : ort.InferenceSession.create(model, options);
  };
  const runtime = {
    name: `onnxruntime-node (${cuda ? 'cuda' : 'cpu'})`,
    async load(manifest: ModelFile): Promise<InferenceSession> {
      const file = modelFilePath(manifest.file);
      const model = opts.batch > 1 && batchable(manifest) ? freeBatchDim(fs.readFileSync(file)) : file;
      let session: ort.InferenceSession | null = null;
      if (cuda) {
        try {
          session = await create(model, [{ name: 'cuda', deviceId: opts.device }, 'cpu']);
        } catch (e) {
          cuda = false;
          runtime.name = 'onnxruntime-node (cpu)';
          console.error(`[inference] the CUDA execution provider failed to start (${e instanceof Error ? e.message : String(e)}): running on the CPU.`);
        }
      }
      const s = session ?? (await create(model, ['cpu']));
      announce();
      return {
        run: (feeds, outputs) => runFloat32(ort.Tensor, s, feeds, outputs),
        release: () => s.release(),
      };
    },
  };
  return runtime;
}
