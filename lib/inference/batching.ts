import type { ModelManifest } from '../../engine/models/manifest';
import type { InferenceSession, ModelFile, TensorData } from '../../engine/runtime';

/**
 * Models whose frames can share a run: the ISNet family (the keyframe tiers), fully
 * convolutional at any multiple of 32. Fixed-size models (MediaPipe selfie) reshape with a
 * batch of 1 built in. A model loaded by its file alone (the refinement's prompt models) is not
 * batched.
 */
export const batchable = (m: ModelFile | ModelManifest) =>
  'input' in m && m.input.size === 'multiple-of-32';

interface Waiting {
  feeds: Record<string, TensorData>;
  outputs: readonly string[];
  resolve(out: Record<string, TensorData>): void;
  reject(e: unknown): void;
}

/**
 * The batch key: runs are merged only when every feed has the same shape and the same outputs are
 * asked for.
 */
const shapeOf = (w: Waiting) =>
  JSON.stringify([Object.entries(w.feeds).map(([k, t]) => [k, t.dims]), w.outputs]);

function concat(parts: TensorData[]): TensorData {
  const data = new Float32Array(parts.reduce((n, t) => n + t.data.length, 0));
  let at = 0;
  for (const t of parts) {
    data.set(t.data, at);
    at += t.data.length;
  }
  return { data, dims: [parts.reduce((n, t) => n + t.dims[0]!, 0), ...parts[0]!.dims.slice(1)] };
}

/**
 * Keyframes batched into one model run: runs asked for while the model is busy wait, and the
 * next run takes up to `maxBatch` of them, stacked along the first (batch) dimension and split
 * again afterwards. A GPU computes a batch of 4 in little more time than one. The session says
 * it wants 2 × maxBatch runs outstanding, so a full batch gathers while one computes. The model
 * must accept a batch dimension (ort-node-local.ts frees it at load).
 */
export function batchRuns(inner: InferenceSession, maxBatch: number): InferenceSession {
  const queue: Waiting[] = [];
  let busy = false;

  async function pump(): Promise<void> {
    if (busy || !queue.length) return;
    busy = true;
    const key = shapeOf(queue[0]!);
    const batch: Waiting[] = [];
    for (let i = 0; i < queue.length && batch.length < maxBatch;) {
      if (shapeOf(queue[i]!) === key) batch.push(...queue.splice(i, 1));
      else i++;
    }
    try {
      const first = batch[0]!;
      const feeds = Object.fromEntries(
        Object.keys(first.feeds).map((name) => [name, concat(batch.map((w) => w.feeds[name]!))]),
      );
      const out = await inner.run(feeds, first.outputs);
      let row = 0;
      for (const w of batch) {
        const rows = Object.values(w.feeds)[0]!.dims[0]!;
        const mine: Record<string, TensorData> = {};
        for (const [name, t] of Object.entries(out)) {
          const per = t.data.length / t.dims[0]!;
          mine[name] = {
            data: t.data.slice(row * per, (row + rows) * per),
            dims: [rows, ...t.dims.slice(1)],
          };
        }
        row += rows;
        w.resolve(mine);
      }
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      busy = false;
      void pump();
    }
  }

  return {
    inFlight: 2 * maxBatch,
    run(feeds, outputs) {
      return new Promise((resolve, reject) => {
        queue.push({ feeds, outputs, resolve, reject });
        void pump();
      });
    },
    release: () => inner.release(),
  };
}
