import type { TensorData } from './runtime';

/** The part of an onnxruntime tensor the adapters use; onnxruntime-node and -web share it. */
interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  getData(): Promise<unknown>;
  dispose(): void;
}

interface OrtSession {
  run(feeds: Record<string, OrtTensor>, fetches: readonly string[]): Promise<Record<string, OrtTensor | undefined>>;
}

type OrtTensorConstructor = new (type: 'float32', data: Float32Array, dims: readonly number[]) => OrtTensor;

/**
 * One model run through any onnxruntime build (node, web WASM, web WebGPU): float32 feeds in,
 * the named outputs copied out as float32 (GPU-resident ones downloaded first), and the
 * library's own output tensors disposed.
 */
export async function runFloat32(
  Tensor: OrtTensorConstructor,
  session: OrtSession,
  feeds: Record<string, TensorData>,
  outputs: readonly string[],
): Promise<Record<string, TensorData>> {
  const inputs: Record<string, OrtTensor> = {};
  for (const [name, t] of Object.entries(feeds)) inputs[name] = new Tensor('float32', t.data, t.dims);
  const result = await session.run(inputs, outputs);
  const out: Record<string, TensorData> = {};
  for (const name of outputs) {
    const t = result[name];
    if (!t) continue;
    if (t.type !== 'float32') throw new Error(`Model output ${name} has type ${t.type}; the engine reads float32 outputs`);
    out[name] = { data: ((await t.getData()) as Float32Array).slice(), dims: t.dims };
    t.dispose();
  }
  return out;
}
