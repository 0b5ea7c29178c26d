/**
 * The inference thread: owns the onnxruntime-node sessions of one runtime (started by
 * ort-node-runtime.ts). onnxruntime-node computes on the thread that calls run(), so running
 * it here leaves the worker process's main thread free to decode, refine and encode other
 * frames, renew its queue lease and report progress while a model runs.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { runFloat32 } from '../ort-run';
import type { FromOrtThread, OrtThreadOptions, ToOrtThread } from './ort-protocol';

const port = parentPort;
if (!port) throw new Error('ort-thread.ts runs as a worker thread');
const { threads } = workerData as OrtThreadOptions;
const sessions = new Map<number, ort.InferenceSession>();
let nextSession = 1;
let cuda = ort.listSupportedBackends().some((b) => b.name === 'cuda') && cudaLibraryPresent();

/** The CUDA provider ships as a separate library that only a CUDA-enabled install fetches. */
function cudaLibraryPresent(): boolean {
  try {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
    return fs.existsSync(path.join(pkg, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so'));
  } catch {
    return false;
  }
}

function create(file: string, providers: string[]): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(file, {
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
}

/** CUDA when present; a CUDA start that fails (driver, library) falls back to CPU for good. */
async function load(file: string): Promise<FromOrtThread & { ok: true }> {
  let session: ort.InferenceSession | null = null;
  if (cuda) {
    try {
      session = await create(file, ['cuda', 'cpu']);
    } catch {
      cuda = false;
    }
  }
  session ??= await create(file, ['cpu']);
  const id = nextSession++;
  sessions.set(id, session);
  return { id: 0, ok: true, session: id, provider: cuda ? 'cuda' : 'cpu' };
}

function sessionOf(id: number): ort.InferenceSession {
  const s = sessions.get(id);
  if (!s) throw new Error('The model session was released');
  return s;
}

async function handle(msg: ToOrtThread): Promise<void> {
  try {
    switch (msg.type) {
      case 'load':
        port!.postMessage({ ...(await load(msg.file)), id: msg.id } satisfies FromOrtThread);
        return;
      case 'run': {
        const outputs = await runFloat32(ort.Tensor, sessionOf(msg.session), msg.feeds, msg.outputs);
        port!.postMessage({ id: msg.id, ok: true, outputs } satisfies FromOrtThread, Object.values(outputs).map((t) => t.data.buffer as ArrayBuffer));
        return;
      }
      case 'release':
        await sessionOf(msg.session).release();
        sessions.delete(msg.session);
        port!.postMessage({ id: msg.id, ok: true } satisfies FromOrtThread);
        return;
    }
  } catch (err) {
    port!.postMessage({ id: msg.id, ok: false, message: (err as Error).message || String(err) } satisfies FromOrtThread);
  }
}

// One request at a time, in order: a run blocks this thread anyway.
let queue = Promise.resolve();
port.on('message', (msg: ToOrtThread) => {
  queue = queue.then(() => handle(msg));
});
