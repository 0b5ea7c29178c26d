/**
 * The InferenceRuntime port. The engine never imports an inference library: the server injects
 * workers/server/ort-node-runtime.ts (onnxruntime-node, CUDA when present, else CPU) and the
 * browser injects workers/browser/ort-web-runtime.ts (onnxruntime-web, WASM).
 */
import type { ModelManifest } from './models/manifest';

/** A dense float32 tensor, row-major, in the layout the model declares. */
export interface TensorData {
  data: Float32Array;
  dims: readonly number[];
}

export interface InferenceSession {
  /** Runs the model and returns only the named outputs (side outputs are never computed). */
  run(feeds: Record<string, TensorData>, outputs: readonly string[]): Promise<Record<string, TensorData>>;
  release(): Promise<void>;
}

export interface InferenceRuntime {
  /** e.g. "onnxruntime-node (cpu)" — shown in benchmarks and logs. */
  readonly name: string;
  /** Loads a prepared model; the adapter knows where its files live (MODELS_DIR, /models/<file>). */
  load(model: ModelManifest): Promise<InferenceSession>;
}
