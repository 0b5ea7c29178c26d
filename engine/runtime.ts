/**
 * The InferenceRuntime port. The engine never imports an inference library: the server injects
 * lib/inference/ort-node-runtime.ts (onnxruntime-node on INFERENCE_DEVICE: CUDA, WebGPU or CPU) and
 * the browser injects workers/browser/ort-web-runtime.ts (onnxruntime-web, WASM).
 */
import type { ModelManifest } from './models/manifest';

/** A dense float32 tensor, row-major, in the layout the model declares. */
export interface TensorData {
  data: Float32Array;
  dims: readonly number[];
}

export interface InferenceSession {
  /**
   * Runs the model and returns only the named outputs (side outputs are never computed). The
   * feeds' buffers may be transferred to another thread: the caller must not use them afterwards.
   */
  run(
    feeds: Record<string, TensorData>,
    outputs: readonly string[],
  ): Promise<Record<string, TensorData>>;
  release(): Promise<void>;
  /**
   * Runs worth keeping outstanding at once. Absent or 0: run() computes on the caller's thread,
   * so nothing can overlap it and the engine waits for each result. 1 or more: run() computes
   * elsewhere (a worker thread, a GPU), and the engine prepares and finishes other frames while
   * up to this many runs are outstanding.
   */
  readonly inFlight?: number;
}

/** What a runtime needs to load a model: its id (for logs and caching) and its prepared file. */
export type ModelFile = Pick<ModelManifest, 'id' | 'file'>;

export interface InferenceRuntime {
  /** e.g. "onnxruntime-node (cpu)" — shown in benchmarks and logs. */
  readonly name: string;
  /**
   * Loads a prepared model; the adapter knows where its files live (MODELS_DIR, /models/<file>).
   */
  load(model: ModelFile): Promise<InferenceSession>;
  /**
   * Unloads the models it keeps loaded between videos that no one uses now (a later load loads
   * them again). Absent where a runtime keeps none.
   */
  releaseIdle?(): Promise<void>;
}
