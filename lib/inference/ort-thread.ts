/**
 * The inference thread (started by ort-node-runtime.ts through ort-thread.mjs): serves the
 * onnxruntime-node runtime. onnxruntime-node computes on the thread that calls run(), so
 * running it here leaves the worker process's main thread free to decode, refine and encode
 * other frames, renew its queue lease and report progress while a model runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveRuntime, type RuntimeReply, type RuntimeRequest } from './runtime-rpc';
import { createLocalOrtNodeRuntime } from './ort-node-local';

const port = parentPort;
if (!port) throw new Error('ort-thread.ts runs as a worker thread');
serveRuntime(createLocalOrtNodeRuntime((workerData as { threads: number }).threads), {
  post: (msg: RuntimeReply, transfer) => port.postMessage(msg, transfer),
  listen: (onMessage: (msg: RuntimeRequest) => void) => port.on('message', onMessage),
});
