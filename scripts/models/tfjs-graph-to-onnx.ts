import onnxProto from 'onnx-proto';
import { halfToFloat, hwioToOihw } from './tf-weights';

const { onnx } = onnxProto;
const DT = onnx.TensorProto.DataType;
const AT = onnx.AttributeProto.AttributeType;

/**
 * A TensorFlow.js graph model (model.json + its weight shards) → an ONNX model, at prepare time.
 * It covers the ops of the convolutional graphs we ship (Robust Video Matting's MobileNetV3):
 * convolutions, element-wise arithmetic, pooling, bilinear resizing and the shape arithmetic
 * around them. The layout stays NHWC; convolutions and pooling are wrapped in transposes, which
 * onnxruntime's transpose optimizer cancels between neighbours.
 *
 * `fixed` inputs become constants, which decides every Switch whose predicate depends only on
 * them: the branch not taken is pruned, Merge takes the live one, and the result has no control
 * flow (onnxruntime cannot run TF's Switch/Merge). Anything else unsupported is an error naming
 * the op, never a silently wrong model.
 */
export interface TfjsGraphModel {
  /** The parsed model.json. */
  json: TfjsModelJson;
  /** The weight shards, joined in the order the manifest lists them. */
  weights: Uint8Array;
}

export interface ConvertOptions {
  /** Placeholder name → scalar value baked into the graph. */
  fixed?: Record<string, number>;
  /** Signature outputs to keep (default: all), by signature key (e.g. "pha"). */
  outputs?: readonly string[];
}

interface TfjsNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface TfAttr {
  i?: string;
  f?: number;
  b?: boolean;
  s?: string;
  type?: string;
  list?: { i?: string[]; s?: string[] };
}
interface TfjsWeight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool';
  quantization?: { dtype: 'uint8' | 'uint16' | 'float16'; min?: number; scale?: number };
}
export interface TfjsModelJson {
  format: string;
  modelTopology: { node: TfjsNode[] };
  weightsManifest: { paths: string[]; weights: TfjsWeight[] }[];
  signature?: {
    inputs: Record<string, { name: string }>;
    outputs: Record<string, { name: string }>;
  };
}

/** A constant; TF's int32 is carried as int64, ONNX's type for shapes and indices. */
interface Const {
  type: 'float' | 'int' | 'bool';
  shape: number[];
  data: Float32Array | BigInt64Array | Uint8Array;
}
type Value =
  | { kind: 'const'; c: Const }
  | { kind: 'dead' }
  | { kind: 'live'; name: string }
  | { kind: 'space-to-batch'; name: string; block: number[] };

type OnnxNode = {
  name: string;
  opType: string;
  input: string[];
  output: string[];
  attribute: object[];
};

/** Reads the weight shards into constants (uint8/uint16/float16 quantisation undone). */
export function readWeights(json: TfjsModelJson, bytes: Uint8Array): Map<string, Const> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Map<string, Const>();
  let at = 0;
  for (const w of json.weightsManifest.flatMap((g) => g.weights)) {
    const n = w.shape.reduce((a, b) => a * b, 1);
    const q = w.quantization;
    const size = q ? (q.dtype === 'uint8' ? 1 : 2) : w.dtype === 'bool' ? 1 : 4;
    if (at + n * size > bytes.byteLength) throw new Error(`weights end before ${w.name}`);
    let c: Const;
    if (w.dtype === 'float32') {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const o = at + i * size;
        if (!q) data[i] = view.getFloat32(o, true);
        else if (q.dtype === 'float16') data[i] = halfToFloat(view.getUint16(o, true));
        else
          data[i] =
            (q.min ?? 0) +
            (q.scale ?? 1) * (q.dtype === 'uint8' ? view.getUint8(o) : view.getUint16(o, true));
      }
      c = { type: 'float', shape: w.shape, data };
    } else if (w.dtype === 'int32') {
      if (q) throw new Error(`quantised int32 weight ${w.name} is not supported`);
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) data[i] = BigInt(view.getInt32(at + i * 4, true));
      c = { type: 'int', shape: w.shape, data };
    } else {
      c = { type: 'bool', shape: w.shape, data: bytes.slice(at, at + n) };
    }
    out.set(w.name, c);
    at += n * size;
  }
  return out;
}

const ints = (c: Const) => Array.from(c.data as BigInt64Array, Number);
const attrOf = (n: TfjsNode, k: string) => n.attr?.[k];
const listOf = (n: TfjsNode, k: string) => (attrOf(n, k)?.list?.i ?? []).map(Number);
const str = (n: TfjsNode, k: string) => Buffer.from(attrOf(n, k)?.s ?? '', 'base64').toString();

/** The ONNX graph being built, and what each TF tensor has become so far. */
function graphBuilder() {
  const values = new Map<string, Value>();
  const nodes: OnnxNode[] = [];
  const initializers = new Map<string, Const>();
  const graphInputs: string[] = [];
  const nchw = new Map<string, string>();
  let uid = 0;
  /**
   * Outputs of convolutions dilated by a SpaceToBatchND; the closing BatchToSpaceND passes them
   * through.
   */
  const dilatedOutputs = new Set<string>();

  const ref = (input: string) => (input.includes(':') ? input : `${input}:0`);
  /** Nodes on a branch a fixed Switch did not take: every output is dead. */
  const dead = new Set<string>();
  const value = (input: string): Value => {
    const v = values.get(ref(input));
    if (v) return v;
    if (dead.has(input.split(':')[0]!)) return { kind: 'dead' };
    throw new Error(`unknown tensor ${input}`);
  };
  const constOf = (input: string, what: string): Const => {
    const v = value(input);
    if (v.kind !== 'const') throw new Error(`${what} must be constant`);
    return v.c;
  };
  /** An ONNX value name for a tensor: constants become initializers. */
  const nameOf = (input: string): string => {
    const v = value(input);
    if (v.kind === 'live') return v.name;
    if (v.kind === 'const') {
      const name = `const/${ref(input)}`;
      initializers.set(name, v.c);
      return name;
    }
    throw new Error(`tensor ${input} cannot be used here (${v.kind})`);
  };
  const constant = (c: Const) => {
    const name = `keyout/const${uid++}`;
    initializers.set(name, c);
    return name;
  };
  const int64 = (xs: number[]) =>
    constant({ type: 'int', shape: [xs.length], data: BigInt64Array.from(xs.map(BigInt)) });
  const emit = (
    opType: string,
    input: string[],
    attrs: Record<string, number | number[] | string> = {},
    outputs = 1,
  ): string[] => {
    const base = `keyout/${opType}${uid++}`;
    const output = Array.from({ length: outputs }, (_, i) => `${base}:${i}`);
    nodes.push({
      name: base,
      opType,
      input,
      output,
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return output;
  };
  const toNchw = (x: string) => {
    let t = nchw.get(x);
    if (!t) nchw.set(x, (t = emit('Transpose', [x], { perm: [0, 3, 1, 2] })[0]!));
    return t;
  };
  const toNhwc = (x: string) => emit('Transpose', [x], { perm: [0, 2, 3, 1] })[0]!;
  return {
    values,
    nodes,
    initializers,
    graphInputs,
    dead,
    dilatedOutputs,
    value,
    constOf,
    nameOf,
    constant,
    int64,
    emit,
    toNchw,
    toNhwc,
  };
}

type GraphBuilder = ReturnType<typeof graphBuilder>;

export function convertTfjsGraph(model: TfjsGraphModel, opts: ConvertOptions = {}): Uint8Array {
  const { json } = model;
  if (json.format !== 'graph-model')
    throw new Error(`not a TFJS graph model (format ${json.format})`);
  const weights = readWeights(json, model.weights);
  const g = graphBuilder();
  convertNodes(g, json, weights, opts.fixed ?? {});
  return assembleModel(g, json, opts);
}

/** Every TF node, in dependency order, into a value: constant, dead, or live ONNX output. */
function convertNodes(
  g: GraphBuilder,
  json: TfjsModelJson,
  weights: Map<string, Const>,
  fixed: Record<string, number>,
): void {
  const { values, graphInputs, dead, dilatedOutputs, value, constOf, nameOf } = g;
  for (const n of topological(json.modelTopology.node)) {
    const data = (n.input ?? []).filter((i) => !i.startsWith('^'));
    const set = (outs: Value[]) => outs.forEach((v, i) => values.set(`${n.name}:${i}`, v));
    if (n.op === 'Const') {
      const c = weights.get(n.name);
      if (!c) throw new Error(`no weights for constant ${n.name}`);
      set([{ kind: 'const', c }]);
      continue;
    }
    if (n.op === 'Placeholder') {
      if (n.name in fixed) set([{ kind: 'const', c: scalar(fixed[n.name]!) }]);
      else {
        graphInputs.push(n.name);
        set([{ kind: 'live', name: n.name }]);
      }
      continue;
    }
    if (n.op === 'NoOp') continue;
    const ins = data.map(value);
    if (n.op === 'Merge') {
      const live = ins.find((v) => v.kind !== 'dead');
      set([live ?? { kind: 'dead' }]);
      continue;
    }
    if (ins.some((v) => v.kind === 'dead')) {
      dead.add(n.name);
      continue;
    }
    if (n.op === 'Identity') {
      set([ins[0]!]);
      continue;
    }
    if (n.op === 'Switch') {
      const pred = ins[1]!;
      if (pred.kind !== 'const')
        throw new Error(
          `${n.name}: Switch on a value that is not fixed (fix the inputs it depends on)`,
        );
      const taken = pred.c.data[0] ? 1 : 0;
      set([0, 1].map((i) => (i === taken ? ins[0]! : { kind: 'dead' })));
      continue;
    }
    if (n.op === 'SpaceToBatchND') {
      // Only as the opening of a dilated convolution (TF's lowering of dilation_rate > 1).
      const users = json.modelTopology.node.filter((u) => u.input?.includes(n.name));
      if (!users.every((u) => u.op.includes('DepthwiseConv2dNative') || u.op.includes('Conv2D')))
        throw new Error(`${n.name}: SpaceToBatchND outside a dilated convolution is not supported`);
      set([
        {
          kind: 'space-to-batch',
          name: nameOf(data[0]!),
          block: ints(constOf(data[1]!, `${n.name} block`)),
        },
      ]);
      continue;
    }
    const folded = fold(n, ins);
    if (folded) {
      set([{ kind: 'const', c: folded }]);
      continue;
    }
    const outs = translate(g, n, data);
    if (ins[0]?.kind === 'space-to-batch') dilatedOutputs.add(outs[0]!);
    set(outs.map((name) => ({ kind: 'live', name })));
  }
}

/**
 * The kept signature outputs, the nodes they depend on, and the initializers those use, as an
 * encoded ONNX model.
 */
function assembleModel(g: GraphBuilder, json: TfjsModelJson, opts: ConvertOptions): Uint8Array {
  const { nodes, initializers, graphInputs, nameOf } = g;
  const sig = json.signature?.outputs ?? {};
  const keep = opts.outputs ?? Object.keys(sig);
  const graphOutputs = keep.map((key) => {
    const tf = sig[key]?.name;
    if (!tf) throw new Error(`the model has no output ${key}`);
    nodes.push({
      name: `keyout/out/${key}`,
      opType: 'Identity',
      input: [nameOf(tf)],
      output: [key],
      attribute: [],
    });
    return key;
  });
  const live = reachable(nodes, graphOutputs);
  const used = new Set(live.flatMap((n) => n.input));
  const sym = (name: string, rank: number) =>
    Array.from({ length: rank }, (_, i) => ({ dimParam: `${name}_${i}` }));
  const info = (name: string) => ({
    name,
    type: { tensorType: { elemType: DT.FLOAT, shape: { dim: sym(name, 4) } } },
  });
  const graph = onnx.GraphProto.create({
    name: 'converted-from-tfjs',
    node: live.map((n) => onnx.NodeProto.create(n)),
    input: graphInputs.filter((i) => used.has(i)).map(info),
    output: graphOutputs.map(info),
    initializer: [...initializers]
      .filter(([name]) => used.has(name))
      .map(([name, c]) => tensorProto(name, c)),
  });
  const m = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'keyout tfjs-graph-to-onnx',
    opsetImport: [{ domain: '', version: 17 }],
    graph,
  });
  return onnx.ModelProto.encode(m).finish();
}

/** Conv2D and depthwise variants, fused bias and activation included; NHWC in and out. */
function conv(g: GraphBuilder, n: TfjsNode, data: string[], depthwise: boolean): string {
  const { value, nameOf, constOf, constant, emit, toNchw, toNhwc } = g;
  const src = value(data[0]!);
  const dilated = src.kind === 'space-to-batch';
  const x = dilated ? src.name : nameOf(data[0]!);
  const w = constOf(data[1]!, `${n.name} weights`);
  const [kh, kw, cin] = w.shape as [number, number, number, number];
  const kernel = hwioToOihw(w.shape, w.data as Float32Array, depthwise);
  const strides = listOf(n, 'strides');
  const dilations = dilated ? src.block : listOf(n, 'dilations').slice(1, 3);
  const attrs: Record<string, number | number[] | string> = {
    kernel_shape: [kh, kw],
    strides: [strides[1] ?? 1, strides[2] ?? 1],
    dilations: dilations.length ? dilations : [1, 1],
    group: depthwise ? cin : 1,
  };
  if (str(n, 'padding') === 'SAME') attrs.auto_pad = 'SAME_UPPER';
  else if (str(n, 'padding') !== 'VALID')
    throw new Error(`${n.name}: padding ${str(n, 'padding')} is not supported`);
  const fused = (attrOf(n, 'fused_ops')?.list?.s ?? []).map((s) =>
    Buffer.from(s, 'base64').toString(),
  );
  const inputs = [toNchw(x), constant({ type: 'float', shape: kernel.dims, data: kernel.data })];
  if (fused[0] === 'BiasAdd') inputs.push(nameOf(data[2]!));
  else if (fused.length) throw new Error(`${n.name}: fused ${fused.join('+')} is not supported`);
  let y = emit('Conv', inputs, attrs)[0]!;
  for (const act of fused.slice(1)) y = activation(g, act, y, n.name);
  return toNhwc(y);
}

function activation(g: GraphBuilder, op: string, x: string, where: string): string {
  const { constant, emit } = g;
  if (op === 'Relu' || op === 'Sigmoid' || op === 'Tanh') return emit(op, [x])[0]!;
  if (op === 'Relu6') return emit('Clip', [x, constant(scalar(0)), constant(scalar(6))])[0]!;
  throw new Error(`${where}: activation ${op} is not supported`);
}

const binary: Record<string, string> = {
  Mul: 'Mul',
  AddV2: 'Add',
  Add: 'Add',
  Sub: 'Sub',
  RealDiv: 'Div',
  Minimum: 'Min',
  Maximum: 'Max',
  FloorMod: 'Mod',
  Equal: 'Equal',
};

/** The ONNX outputs of one live TF node (one name per TF output). */
function translate(g: GraphBuilder, n: TfjsNode, data: string[]): string[] {
  const { dilatedOutputs, constOf, nameOf, int64, emit, toNchw, toNhwc } = g;
  const x = () => nameOf(data[0]!);
  switch (n.op) {
    case '_FusedConv2D':
    case 'Conv2D':
      return [conv(g, n, data, false)];
    case 'FusedDepthwiseConv2dNative':
    case 'DepthwiseConv2dNative':
      return [conv(g, n, data, true)];
    case 'Relu':
    case 'Relu6':
    case 'Sigmoid':
    case 'Tanh':
      return [activation(g, n.op, x(), n.name)];
    case 'Square':
      return emit('Mul', [x(), x()]);
    case 'Mean': {
      const axes = ints(constOf(data[1]!, `${n.name} axes`));
      return emit('ReduceMean', [x()], { axes, keepdims: attrOf(n, 'keep_dims')?.b ? 1 : 0 });
    }
    case 'ConcatV2': {
      const axis = ints(constOf(data[data.length - 1]!, `${n.name} axis`))[0]!;
      return emit('Concat', data.slice(0, -1).map(nameOf), { axis });
    }
    case 'Split': {
      const k = Number(attrOf(n, 'num_split')?.i);
      return emit(
        'Split',
        [nameOf(data[1]!)],
        { axis: ints(constOf(data[0]!, `${n.name} axis`))[0]! },
        k,
      );
    }
    case 'SplitV': {
      const sizes = ints(constOf(data[1]!, `${n.name} sizes`));
      return emit(
        'Split',
        [x(), int64(sizes)],
        { axis: ints(constOf(data[2]!, `${n.name} axis`))[0]! },
        sizes.length,
      );
    }
    case 'Pad': {
      const p = ints(constOf(data[1]!, `${n.name} paddings`));
      return emit('Pad', [
        x(),
        int64([...p.filter((_, i) => i % 2 === 0), ...p.filter((_, i) => i % 2 === 1)]),
      ]);
    }
    case 'AvgPool': {
      const k = listOf(n, 'ksize');
      const s = listOf(n, 'strides');
      const attrs: Record<string, number | number[] | string> = {
        kernel_shape: [k[1]!, k[2]!],
        strides: [s[1]!, s[2]!],
        count_include_pad: 0,
      };
      if (str(n, 'padding') === 'SAME') attrs.auto_pad = 'SAME_UPPER';
      return [toNhwc(emit('AveragePool', [toNchw(x())], attrs)[0]!)];
    }
    case 'ResizeBilinear': {
      const mode = attrOf(n, 'align_corners')?.b
        ? 'align_corners'
        : attrOf(n, 'half_pixel_centers')?.b
          ? 'half_pixel'
          : 'asymmetric';
      const shape = emit('Shape', [x()])[0]!;
      const nOf = emit('Slice', [shape, int64([0]), int64([1])])[0]!;
      const cOf = emit('Slice', [shape, int64([3]), int64([4])])[0]!;
      const sizes = emit('Concat', [nOf, nameOf(data[1]!), cOf], { axis: 0 })[0]!;
      return emit('Resize', [x(), '', '', sizes], {
        mode: 'linear',
        coordinate_transformation_mode: mode,
      });
    }
    case 'Slice': {
      // TF: begin and size (-1 = to the end); ONNX: starts and ends.
      const begin = nameOf(data[1]!);
      const size = nameOf(data[2]!);
      const sum = emit('Add', [begin, size])[0]!;
      const toEnd = emit('Less', [size, int64([0])])[0]!;
      const ends = emit('Where', [toEnd, int64([Number.MAX_SAFE_INTEGER]), sum])[0]!;
      return emit('Slice', [x(), begin, ends]);
    }
    case 'StridedSlice':
      return [stridedSlice(g, n, data)];
    case 'Pack': {
      const axis = Number(attrOf(n, 'axis')?.i ?? 0);
      const parts = data.map((d) => emit('Unsqueeze', [nameOf(d), int64([axis])])[0]!);
      return emit('Concat', parts, { axis });
    }
    case 'Shape':
      return emit('Shape', [x()]);
    case 'Cast': {
      const to = attrOf(n, 'DstT')?.type;
      const t =
        to === 'DT_FLOAT'
          ? DT.FLOAT
          : to === 'DT_INT32' || to === 'DT_INT64'
            ? DT.INT64
            : to === 'DT_BOOL'
              ? DT.BOOL
              : null;
      if (t === null) throw new Error(`${n.name}: cast to ${to} is not supported`);
      return emit('Cast', [x()], { to: t });
    }
    case 'BroadcastTo':
      return emit('Expand', [x(), nameOf(data[1]!)]);
    case 'Squeeze': {
      const axes = listOf(n, 'squeeze_dims');
      return emit('Squeeze', axes.length ? [x(), int64(axes)] : [x()]);
    }
    case 'BatchToSpaceND': {
      // Closes a dilated convolution opened by SpaceToBatchND: conv() already dilated it.
      if (!dilatedOutputs.has(x()))
        throw new Error(`${n.name}: BatchToSpaceND outside a dilated convolution is not supported`);
      return [x()];
    }
    default: {
      const op = binary[n.op];
      if (!op) throw new Error(`TF op ${n.op} (${n.name}) is not supported by the converter`);
      return emit(op, [nameOf(data[0]!), nameOf(data[1]!)]);
    }
  }
}

function stridedSlice(g: GraphBuilder, n: TfjsNode, data: string[]): string {
  const { constOf, nameOf, int64, emit } = g;
  for (const m of ['ellipsis_mask', 'new_axis_mask'])
    if (Number(attrOf(n, m)?.i ?? 0)) throw new Error(`${n.name}: ${m} is not supported`);
  const begin = ints(constOf(data[1]!, `${n.name} begin`));
  const end = ints(constOf(data[2]!, `${n.name} end`));
  const steps = ints(constOf(data[3]!, `${n.name} strides`));
  const bit = (m: string, i: number) => (Number(attrOf(n, m)?.i ?? 0) >> i) & 1;
  const BIG = Number.MAX_SAFE_INTEGER;
  const axes = begin.map((_, i) => i);
  const starts = axes.map((i) => (bit('begin_mask', i) ? (steps[i]! > 0 ? 0 : BIG) : begin[i]!));
  const shrink = axes.filter((i) => bit('shrink_axis_mask', i));
  const ends = axes.map((i) =>
    bit('shrink_axis_mask', i)
      ? begin[i] === -1
        ? BIG
        : begin[i]! + 1
      : bit('end_mask', i)
        ? steps[i]! > 0
          ? BIG
          : -BIG
        : end[i]!,
  );
  const y = emit('Slice', [
    nameOf(data[0]!),
    int64(starts),
    int64(ends),
    int64(axes),
    int64(steps),
  ])[0]!;
  return shrink.length ? emit('Squeeze', [y, int64(shrink)])[0]! : y;
}

/** Constant folding where a Switch predicate needs it: only on constant inputs. */
function fold(n: TfjsNode, ins: Value[]): Const | null {
  if (!ins.length || !ins.every((v) => v.kind === 'const')) return null;
  const cs = ins.map((v) => (v as { c: Const }).c);
  if (n.op === 'Equal' && cs[0]!.data.length === 1 && cs[1]!.data.length === 1)
    return {
      type: 'bool',
      shape: [],
      data: Uint8Array.of(Number(cs[0]!.data[0]) === Number(cs[1]!.data[0]) ? 1 : 0),
    };
  if (n.op === 'Squeeze' && cs[0]!.data.length === 1) return { ...cs[0]!, shape: [] };
  return null;
}

function scalar(v: number): Const {
  return { type: 'float', shape: [], data: Float32Array.of(v) };
}

function attribute(name: string, v: number | number[] | string) {
  if (typeof v === 'string')
    return onnx.AttributeProto.create({ name, type: AT.STRING, s: new TextEncoder().encode(v) });
  if (Array.isArray(v)) return onnx.AttributeProto.create({ name, type: AT.INTS, ints: v });
  return onnx.AttributeProto.create({ name, type: AT.INT, i: v });
}

function tensorProto(name: string, c: Const) {
  const dataType = c.type === 'float' ? DT.FLOAT : c.type === 'int' ? DT.INT64 : DT.BOOL;
  const rawData = new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength);
  return onnx.TensorProto.create({ name, dims: c.shape, dataType, rawData });
}

/** The nodes the outputs depend on, in their order. */
function reachable(nodes: OnnxNode[], outputs: string[]): OnnxNode[] {
  const producer = new Map<string, OnnxNode>();
  for (const n of nodes) for (const o of n.output) producer.set(o, n);
  const keep = new Set<OnnxNode>();
  const stack = [...outputs];
  while (stack.length) {
    const n = producer.get(stack.pop()!);
    if (!n || keep.has(n)) continue;
    keep.add(n);
    stack.push(...n.input);
  }
  return nodes.filter((n) => keep.has(n));
}

/** TF graph nodes in dependency order (control inputs included). */
function topological(nodes: TfjsNode[]): TfjsNode[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const done = new Set<string>();
  const out: TfjsNode[] = [];
  const visit = (root: TfjsNode) => {
    const stack: [TfjsNode, number][] = [[root, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [n, i] = top;
      if (done.has(n.name)) {
        stack.pop();
        continue;
      }
      const inputs = n.input ?? [];
      if (i < inputs.length) {
        top[1]++;
        const dep = byName.get(inputs[i]!.replace(/^\^/, '').split(':')[0]!);
        if (dep && !done.has(dep.name)) stack.push([dep, 0]);
        continue;
      }
      done.add(n.name);
      out.push(n);
      stack.pop();
    }
  };
  nodes.forEach(visit);
  return out;
}
