import type { TensorData } from './runtime';

/** The part of an onnxruntime tensor the adapters use; onnxruntime-node and -web share it. */
interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  getData(): Promise<unknown>;
  dispose(): void;
}

interface OrtSession {
  /** The inputs' declared element types (onnxruntime 1.22 and later). */
  readonly inputMetadata?: readonly { name: string; isTensor: boolean; type?: string }[];
  run(
    feeds: Record<string, OrtTensor>,
    fetches: readonly string[],
  ): Promise<Record<string, OrtTensor | undefined>>;
}

type OrtTensorConstructor = new (
  type: 'float32' | 'int64' | 'int32',
  data: Float32Array | BigInt64Array | Int32Array,
  dims: readonly number[],
) => OrtTensor;

/**
 * A float32 feed in the element type the model declares for it: integer inputs (token ids) get the
 * values rounded.
 */
function typed(Tensor: OrtTensorConstructor, type: string | undefined, t: TensorData): OrtTensor {
  if (type === 'int64')
    return new Tensor(
      'int64',
      BigInt64Array.from(t.data, (v) => BigInt(Math.round(v))),
      t.dims,
    );
  if (type === 'int32')
    return new Tensor(
      'int32',
      Int32Array.from(t.data, (v) => Math.round(v)),
      t.dims,
    );
  return new Tensor('float32', t.data, t.dims);
}

/**
 * One model run through any onnxruntime build (node, web WASM, web WebGPU): float32 feeds in
 * (as int64 or int32 where the model declares an integer input), the named outputs copied out
 * as float32 (GPU-resident ones downloaded first), and the library's own output tensors disposed.
 */
export async function runFloat32(
  Tensor: OrtTensorConstructor,
  session: OrtSession,
  feeds: Record<string, TensorData>,
  outputs: readonly string[],
): Promise<Record<string, TensorData>> {
  const inputs: Record<string, OrtTensor> = {};
  const types = new Map(
    session.inputMetadata?.map((m) => [m.name, m.isTensor ? m.type : undefined]),
  );
  for (const [name, t] of Object.entries(feeds)) inputs[name] = typed(Tensor, types.get(name), t);
  const result = await session.run(inputs, outputs);
  const out: Record<string, TensorData> = {};
  for (const name of outputs) {
    const t = result[name];
    if (!t) continue;
    if (t.type !== 'float32')
      throw new Error(`Model output ${name} has type ${t.type}; the engine reads float32 outputs`);
    out[name] = { data: ((await t.getData()) as Float32Array).slice(), dims: t.dims };
    t.dispose();
  }
  return out;
}
