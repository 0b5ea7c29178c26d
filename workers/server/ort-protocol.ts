import type { TensorData } from '../../engine/runtime';

/** What ort-node-runtime.ts hands the inference thread when it starts it. */
export interface OrtThreadOptions {
  /** onnxruntime intra-op threads per session. */
  threads: number;
}

/** Requests to the inference thread (ort-thread.ts); each is answered once, by its id. */
export type ToOrtThread =
  | { type: 'load'; id: number; file: string }
  | { type: 'run'; id: number; session: number; feeds: Record<string, TensorData>; outputs: readonly string[] }
  | { type: 'release'; id: number; session: number };

export type FromOrtThread =
  | { id: number; ok: true; session?: number; provider?: string; outputs?: Record<string, TensorData> }
  | { id: number; ok: false; message: string };
