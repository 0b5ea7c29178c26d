import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession, TensorData } from '../../engine/runtime';
import { env } from '../../lib/env';
import { modelFilePath } from '../../lib/models/resolve';
import type { FromOrtThread, OrtThreadOptions, ToOrtThread } from './ort-protocol';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<ToOrtThread>;
type Reply = FromOrtThread & { ok: true };

/**
 * The inference thread seen from the main thread: requests are answered in order by id. The
 * thread keeps the process alive only while a request is outstanding; if it dies, outstanding
 * requests fail with its error and the next load starts a new one.
 */
function startThread(options: OrtThreadOptions, onExit: () => void) {
  const worker = new Worker(new URL('./ort-thread.mjs', import.meta.url), { workerData: options });
  const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let dead: Error | null = null;
  worker.unref();
  const fail = (err: Error) => {
    dead ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    onExit();
  };
  worker.on('message', (msg: FromOrtThread) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (!waiting.size) worker.unref();
    if (msg.ok) w.resolve(msg);
    else w.reject(new Error(msg.message));
  });
  worker.on('error', (err) => fail(new Error(`The inference thread failed: ${err.message}`)));
  worker.on('exit', (code) => fail(new Error(`The inference thread exited (code ${code})`)));
  return {
    call(req: Request, transfer: ArrayBuffer[] = []): Promise<Reply> {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...req, id }, transfer);
      });
    },
  };
}

/**
 * The server's InferenceRuntime: onnxruntime-node (CUDA when its provider library is installed,
 * else CPU) on a thread of its own, so the main thread prepares and finishes other frames while
 * a model runs (sessions report `inFlight: 1`). Model files come from MODELS_DIR (prepared by
 * `npm run setup`; a missing file is a clear error, never a download).
 */
export function createOrtNodeRuntime(opts: { threads?: number } = {}): InferenceRuntime {
  // onnxruntime's own default counts physical cores, which leaves vCPUs idle on most VMs.
  const threads = opts.threads ?? (env().ORT_THREADS || os.availableParallelism());
  let thread: ReturnType<typeof startThread> | null = null;
  const runtime = {
    name: 'onnxruntime-node',
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const file = modelFilePath(manifest.file);
      const t = (thread ??= startThread({ threads }, () => (thread = null)));
      const { session, provider } = await t.call({ type: 'load', file });
      runtime.name = `onnxruntime-node (${provider})`;
      return {
        inFlight: 1,
        async run(feeds, outputs) {
          const transfer = Object.values(feeds).map((f) => f.data.buffer as ArrayBuffer);
          const reply = await t.call({ type: 'run', session: session!, feeds, outputs }, transfer);
          return reply.outputs as Record<string, TensorData>;
        },
        release: async () => {
          await t.call({ type: 'release', session: session! });
        },
      };
    },
  };
  return runtime;
}
