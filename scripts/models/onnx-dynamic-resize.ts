import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** The decoded fields this rewrite touches (protobufjs fills repeated fields with arrays). */
interface Node {
  name: string;
  opType: string;
  input: string[];
  output: string[];
}
interface Dim {
  dimValue?: unknown;
  dimParam?: string;
}
interface ValueInfo {
  name: string;
  type?: { tensorType?: { shape?: { dim: Dim[] } } };
}
interface Graph {
  node: Node[];
  input: ValueInfo[];
  output: ValueInfo[];
  initializer: { name: string }[];
  valueInfo: ValueInfo[];
}

/**
 * Makes a model whose Resize nodes carry constant target sizes (ISNet/U²-Net style decoders)
 * run at any input side that is a multiple of 32. Each Resize's sizes are Concat(N and C of
 * its input, constant [H, W]); the constant is replaced by the spatial shape of the tensor the
 * resized output is concatenated with, or, for side outputs resized to the full image, by the
 * model input's. Returns the rewritten model bytes and how many Resize nodes changed.
 */
export function makeResizeDynamic(model: Uint8Array): { bytes: Uint8Array; rewritten: number } {
  const m = onnx.ModelProto.decode(model);
  if (!m.graph) throw new Error('ONNX model has no graph');
  const g = m.graph as unknown as Graph;
  const graphInput = g.input[0]?.name;
  if (!graphInput) throw new Error('ONNX model has no input');

  const producer = new Map<string, Node>();
  const consumers = new Map<string, Node[]>();
  for (const n of g.node) {
    for (const o of n.output) producer.set(o, n);
    for (const i of n.input) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  }

  const int64 = (name: string, value: number) =>
    onnx.TensorProto.create({
      name,
      dims: [1],
      dataType: onnx.TensorProto.DataType.INT64,
      int64Data: [value],
    }) as unknown as { name: string };
  g.initializer.push(
    int64('keyout_dyn/starts', 2),
    int64('keyout_dyn/ends', 4),
    int64('keyout_dyn/axes', 0),
  );

  const added: Node[] = [];
  let rewritten = 0;
  for (const n of g.node) {
    if (n.opType !== 'Resize') continue;
    const sizes = n.input[3] ? producer.get(n.input[3]) : undefined;
    if (!sizes || sizes.opType !== 'Concat' || sizes.input.length !== 2) continue;
    // Follow the output through fp16 <-> fp32 Casts to whoever uses the resized tensor.
    let out = n.output[0]!;
    for (;;) {
      const users = consumers.get(out) ?? [];
      if (users.length === 1 && users[0]!.opType === 'Cast') out = users[0]!.output[0]!;
      else break;
    }
    const concat = (consumers.get(out) ?? []).find((u) => u.opType === 'Concat');
    const target = concat ? concat.input.find((i) => i !== out) : graphInput;
    if (!target) continue;
    const base = `keyout_dyn/${n.name || `resize${rewritten}`}`;
    added.push(
      onnx.NodeProto.create({
        name: `${base}/shape`,
        opType: 'Shape',
        input: [target],
        output: [`${base}/shape`],
      }),
      onnx.NodeProto.create({
        name: `${base}/hw`,
        opType: 'Slice',
        input: [`${base}/shape`, 'keyout_dyn/starts', 'keyout_dyn/ends', 'keyout_dyn/axes'],
        output: [`${base}/hw`],
      }),
    );
    sizes.input[1] = `${base}/hw`;
    rewritten++;
  }
  // Drop the constants that only fed the old sizes, so the runtime has nothing to warn about.
  const used = new Set([...g.node, ...added].flatMap((n) => n.input));
  const live = g.node.filter((n) => n.opType !== 'Constant' || n.output.some((o) => used.has(o)));
  g.node = topologicalOrder(
    [...live, ...added],
    new Set([...g.input.map((i) => i.name), ...g.initializer.map((t) => t.name)]),
  );

  // Spatial dims become symbolic; stale intermediate shapes would contradict the new sizes.
  for (const v of [...g.input, ...g.output]) {
    const dims = v.type?.tensorType?.shape?.dim ?? [];
    dims.forEach((d, i) => {
      if (i >= 2 && dims.length === 4) {
        delete d.dimValue;
        d.dimParam = i === 2 ? 'height' : 'width';
      }
    });
  }
  g.valueInfo = [];
  return { bytes: onnx.ModelProto.encode(m).finish(), rewritten };
}

/** Kahn's algorithm, keeping the original order wherever dependencies allow. */
function topologicalOrder(nodes: Node[], available: Set<string>): Node[] {
  const ready = new Set<string>([...available, '']);
  const out: Node[] = [];
  let pending = nodes;
  while (pending.length) {
    const next: Node[] = [];
    for (const n of pending) {
      if (n.input.every((i) => ready.has(i))) {
        out.push(n);
        for (const o of n.output) ready.add(o);
      } else next.push(n);
    }
    if (next.length === pending.length)
      throw new Error('ONNX graph has a cycle or an unknown input');
    pending = next;
  }
  return out;
}
