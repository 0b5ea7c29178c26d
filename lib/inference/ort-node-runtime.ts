import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { InferenceSession, ModelFile } from '../../engine/runtime';
import { env } from '../env';
import { batchRuns } from './batching';
import type { DeviceSetting } from './device';
import type { LocalOrtOptions } from './ort-node-local';
import {
  remoteRuntime,
  type RemoteRuntime,
  type RuntimeReply,
  type RuntimeRequest,
  type ServedRuntime,
} from './runtime-rpc';

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
 * The server's InferenceRuntime: onnxruntime-node (ort-node-local.ts) on a thread of its own, so
 * the main thread prepares and finishes other frames while a model runs, on the device
 * INFERENCE_DEVICE names or `auto` finds. Sessions the thread loads with a batch above 1
 * (ORT_BATCH, or a GPU's default) take keyframes of batchable models several at a time
 * (batching.ts).
 */
export function createOrtNodeRuntime(
  opts: { threads?: number; batch?: number; device?: DeviceSetting } = {},
): ServedRuntime {
  const e = env();
  const options: LocalOrtOptions = {
    // onnxruntime's own default counts physical cores, which leaves vCPUs idle on most VMs.
    threads: opts.threads ?? (e.ORT_THREADS || os.availableParallelism()),
    device: opts.device ?? e.INFERENCE_DEVICE,
    cudaDevice: e.ORT_CUDA_DEVICE,
    batch: opts.batch ?? e.ORT_BATCH,
  };
  let remote: RemoteRuntime | null = null;
  const thread = () => {
    const r = (remote ??= startThread(options, () => {
      if (remote === r) remote = null;
    }));
    return r;
  };
  const runtime: ServedRuntime = {
    name: 'onnxruntime-node',
    async device() {
      const r = thread();
      const choice = await r.device();
      runtime.name = r.name;
      return choice;
    },
    async load(manifest: ModelFile): Promise<InferenceSession> {
      const r = thread();
      const session = await r.load(manifest);
      runtime.name = r.name;
      return (session.batch ?? 1) > 1 ? batchRuns(session, session.batch!) : session;
    },
  };
  return runtime;
}
