import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceRuntime, InferenceSession } from '../../engine/runtime';
import { env } from '../env';
import { remoteRuntime, type RemoteRuntime, type RuntimeReply, type RuntimeRequest } from './runtime-rpc';

/**
 * Starts the inference thread. It holds the process open only while a request is outstanding;
 * if it dies, outstanding requests fail with its error and `onExit` lets the next load start
 * a new one.
 */
function startThread(threads: number, onExit: () => void): RemoteRuntime {
  const worker = new Worker(new URL('./ort-thread.mjs', import.meta.url), { workerData: { threads } });
  worker.unref();
  const remote = remoteRuntime(
    {
      post: (msg: RuntimeRequest, transfer) => worker.postMessage(msg, transfer),
      listen: (onMessage: (msg: RuntimeReply) => void) => worker.on('message', onMessage),
    },
    (busy) => (busy ? worker.ref() : worker.unref()),
  );
  const died = (err: Error) => {
    remote.fail(err);
    onExit();
  };
  worker.on('error', (err) => died(new Error(`The inference thread failed: ${err.message}`)));
  worker.on('exit', (code) => died(new Error(`The inference thread exited (code ${code})`)));
  return remote;
}

/**
 * The server's InferenceRuntime: onnxruntime-node (CUDA when present, else CPU;
 * ort-node-local.ts) on a thread of its own, so the main thread prepares and finishes other
 * frames while a model runs.
 */
export function createOrtNodeRuntime(opts: { threads?: number } = {}): InferenceRuntime {
  // onnxruntime's own default counts physical cores, which leaves vCPUs idle on most VMs.
  const threads = opts.threads ?? (env().ORT_THREADS || os.availableParallelism());
  let remote: RemoteRuntime | null = null;
  const runtime = {
    name: 'onnxruntime-node',
    async load(manifest: ModelManifest): Promise<InferenceSession> {
      const r = (remote ??= startThread(threads, () => {
        if (remote === r) remote = null;
      }));
      const session = await r.load(manifest);
      runtime.name = r.name;
      return session;
    },
  };
  return runtime;
}
