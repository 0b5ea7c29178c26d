import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession } from '../../engine/runtime';
import { modelFilePath } from '../models/resolve';
import { runFloat32 } from '../../engine/ort-run';

/** The CUDA provider ships as a separate library that only a CUDA-enabled install fetches. */
function cudaLibraryPresent(): boolean {
  try {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    return fs.existsSync(path.join(pkg, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so'));
  } catch {
    return false;
  }
}

/**
 * onnxruntime-node on the calling thread: CUDA when its provider library is installed (a CUDA
 * start that fails falls back to CPU for good), else CPU. Model files come from MODELS_DIR; a
 * missing one is a clear error, never a download. Used inside the inference thread
 * (ort-thread.ts): run() blocks the thread that calls it.
 */
export function createLocalOrtNodeRuntime(threads: number): InferenceRuntime {
  let cuda = ort.listSupportedBackends().some((b) => b.name === 'cuda') && cudaLibraryPresent();
  const create = (file: string, providers: string[]) =>
    ort.InferenceSession.create(file, {
      executionProviders: providers,
      graphOptimizationLevel: 'all',
      // The arena keeps ISNet's peak intermediates (~700 MB at 1024²) between frames; without it
      // a worker on 1080p stays near 1 GB instead of 1.6 GB (docs/engine.md).
      enableCpuMemArena: false,
      logSeverityLevel: 4,
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      // Idle pool threads spin-wait by default, taking the cores the main thread is refining
      // other frames on meanwhile: service-human ran at 29 fps spinning, 40 fps without.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
  const runtime = {
    name: `onnxruntime-node (${cuda ? 'cuda' : 'cpu'})`,
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const file = modelFilePath(manifest.file);
      let session: ort.InferenceSession | null = null;
      if (cuda) {
        try {
          session = await create(file, ['cuda', 'cpu']);
        } catch {
          cuda = false;
          runtime.name = 'onnxruntime-node (cpu)';
        }
      }
      const s = session ?? (await create(file, ['cpu']));
      return {
        run: (feeds, outputs) => runFloat32(ort.Tensor, s, feeds, outputs),
        release: () => s.release(),
      };
    },
  };
  return runtime;
}
