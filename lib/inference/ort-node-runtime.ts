import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { InferenceRuntime, InferenceSession, ModelFile } from '../../engine/runtime';
import { env } from '../env';
import { batchable, batchRuns } from './batching';
import type { LocalOrtOptions } from './ort-node-local';
import { remoteRuntime, type RemoteRuntime, type RuntimeReply, type RuntimeRequest } from './runtime-rpc';

/**
 * Starts the inference thread. It holds the process open only while a request is outstanding;
 * if it dies, outstanding requests fail with its error and `onExit` lets the next load start
 * a new one.
 */
function startThread(options: LocalOrtOptions, onExit: () => void): RemoteRuntime {
  const worker = new Worker(new URL('./ort-thread.mjs', import.meta.url), { workerData: options });
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
 * The server's InferenceRuntime: onnxruntime-node on the execution provider ORT_EXECUTION_PROVIDER
 * names (ort-node-local.ts) on a thread of its own, so the main thread prepares and finishes
 * other frames while a model runs. With ORT_BATCH above 1 (a GPU worker's default), keyframes
 * of batchable models go to the model several at a time (batching.ts).
 */
export function createOrtNodeRuntime(opts: { threads?: number; batch?: number } = {}): InferenceRuntime {
  const e = env();
  const options: LocalOrtOptions = {
    // onnxruntime's own default counts physical cores, which leaves vCPUs idle on most VMs.
    threads: opts.threads ?? (e.ORT_THREADS || os.availableParallelism()),
    provider: e.ORT_EXECUTION_PROVIDER,
    device: e.ORT_CUDA_DEVICE,
    batch: opts.batch ?? e.ORT_BATCH ?? (e.ORT_EXECUTION_PROVIDER === 'cuda' ? GPU_BATCH : 1),
  };
  let remote: RemoteRuntime | null = null;
  const runtime = {
    name: 'onnxruntime-node',
    async load(manifest: ModelFile): Promise<InferenceSession> {
      const r = (remote ??= startThread(options, () => {
        if (remote === r) remote = null;
      }));
      const session = await r.load(manifest);
      runtime.name = r.name;
      return options.batch > 1 && batchable(manifest) ? batchRuns(session, options.batch) : session;
    },
  };
  return runtime;
}

/** Keyframes per model run on a GPU unless ORT_BATCH says otherwise. */
const GPU_BATCH = 4;
