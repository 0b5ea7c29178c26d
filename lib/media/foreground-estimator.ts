import { Worker } from 'node:worker_threads';

/**
 * The edge-colour estimate (engine/matte/foreground.ts) on a thread of its own, one for the
 * process: about 94 ms a 1080p frame, which on the main thread would hold up whatever else the
 * worker runs there meanwhile (segmentation's refine and encode, when the primary output renders
 * while segmenting). Frames go over and back by transfer, not copied.
 */

export interface EstimateRequest {
  id: number;
  /** Planar Y′CbCr with alpha (`PIPED_FORMAT`), width × height × 4 bytes. */
  frame: ArrayBuffer;
  width: number;
  height: number;
}

export type EstimateReply = { id: number; frame: ArrayBuffer } | { id: number; error: string };

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (frame: Uint8Array) => void; reject: (e: Error) => void }>;
}

let thread: Thread | null = null;
let nextId = 0;

/**
 * Starts the thread. It holds the process open only while a frame is out; if it dies, the
 * frames out fail with its error and the next estimate starts a new one.
 */
function started(): Thread {
  if (thread) return thread;
  const worker = new Worker(new URL('./foreground-thread.mjs', import.meta.url));
  worker.unref();
  const t: Thread = { worker, pending: new Map() };
  worker.on('message', (reply: EstimateReply) => {
    const waiting = t.pending.get(reply.id);
    if (!waiting) return;
    t.pending.delete(reply.id);
    if (!t.pending.size) worker.unref();
    if ('error' in reply)
      waiting.reject(new Error(`Estimating the edge colours failed: ${reply.error}`));
    else waiting.resolve(new Uint8Array(reply.frame));
  });
  const died = (err: Error) => {
    if (thread === t) thread = null;
    for (const { reject } of t.pending.values()) reject(err);
    t.pending.clear();
  };
  worker.on('error', (err) => died(new Error(`The edge-colour thread failed: ${err.message}`)));
  worker.on('exit', (code) => died(new Error(`The edge-colour thread exited (code ${code})`)));
  thread = t;
  return t;
}

/**
 * The frame with its soft edges' colour estimated; `frame` is handed over (its buffer moves to the
 * thread).
 */
export function estimateOnThread(
  frame: Uint8Array,
  width: number,
  height: number,
): Promise<Uint8Array> {
  const t = started();
  const id = nextId++;
  // Only a buffer of its own can be transferred; a view into a larger one is copied out first.
  const own =
    frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength ? frame : frame.slice();
  return new Promise((resolve, reject) => {
    t.pending.set(id, { resolve, reject });
    t.worker.ref();
    const request: EstimateRequest = { id, frame: own.buffer as ArrayBuffer, width, height };
    t.worker.postMessage(request, [request.frame]);
  });
}
