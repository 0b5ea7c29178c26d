import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

interface Dim {
  dimValue?: unknown;
  dimParam?: string;
}
interface ValueInfo {
  type?: { tensorType?: { shape?: { dim: Dim[] } } };
}

/**
 * The model with the first dimension of its inputs and outputs made symbolic ("batch"), so one
 * run can take several frames. Exported models often fix it at 1 although nothing inside
 * depends on it (ISNet: a batch of 2 gives exactly the two single results).
 */
export function freeBatchDim(model: Uint8Array): Uint8Array {
  const m = onnx.ModelProto.decode(model);
  const graph = m.graph as unknown as { input: ValueInfo[]; output: ValueInfo[] } | null;
  if (!graph) throw new Error('ONNX model has no graph');
  for (const v of [...graph.input, ...graph.output]) {
    const dim = v.type?.tensorType?.shape?.dim[0];
    if (!dim) continue;
    delete dim.dimValue;
    dim.dimParam = 'batch';
  }
  return onnx.ModelProto.encode(m).finish();
}
