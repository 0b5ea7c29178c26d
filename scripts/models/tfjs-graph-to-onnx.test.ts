import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { convertTfjsGraph, readWeights, type TfjsModelJson } from './tfjs-graph-to-onnx';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const H = 4;
const W = 5;

/**
 * x (NHWC, 2 channels) → 3x3 SAME conv + bias + ReLU (weights uint8-quantised) → Switch on
 * ratio == 1: true → ×2, false → +1 → Merge → "out". The real graph (RVM) is checked against
 * TensorFlow.js itself in tests/integration/rvm-conversion.test.ts.
 */
function tinyGraph(): {
  json: TfjsModelJson;
  weights: Uint8Array;
  kernel: Float32Array;
  bias: Float32Array;
} {
  const kernel = Float32Array.from({ length: 3 * 3 * 2 * 2 }, (_, i) => ((i * 37) % 17) / 16 - 0.5);
  // uint8 quantisation: v = min + scale * q, exact for these values.
  const q = Uint8Array.from(kernel, (v) => Math.round((v + 0.5) * 16));
  const bias = Float32Array.of(0.25, -0.5);
  const scalars = Float32Array.of(1, 2);
  const weights = new Uint8Array([
    ...q,
    ...new Uint8Array(bias.buffer),
    ...new Uint8Array(scalars.buffer),
  ]);
  const json: TfjsModelJson = {
    format: 'graph-model',
    modelTopology: {
      node: [
        { name: 'x', op: 'Placeholder' },
        { name: 'ratio', op: 'Placeholder' },
        { name: 'k', op: 'Const' },
        { name: 'b', op: 'Const' },
        { name: 'one', op: 'Const' },
        { name: 'two', op: 'Const' },
        {
          name: 'conv',
          op: '_FusedConv2D',
          input: ['x', 'k', 'b'],
          attr: {
            padding: { s: b64('SAME') },
            strides: { list: { i: ['1', '1', '1', '1'] } },
            dilations: { list: { i: ['1', '1', '1', '1'] } },
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu')] } },
          },
        },
        { name: 'eq', op: 'Equal', input: ['ratio', 'one'] },
        { name: 'pred', op: 'Squeeze', input: ['eq'] },
        { name: 'sw', op: 'Switch', input: ['conv', 'pred'] },
        { name: 'double', op: 'Mul', input: ['sw:1', 'two'] },
        { name: 'plus', op: 'AddV2', input: ['sw', 'one'] },
        { name: 'merged', op: 'Merge', input: ['double', 'plus'] },
        { name: 'Identity', op: 'Identity', input: ['merged'] },
      ],
    },
    weightsManifest: [
      {
        paths: ['tiny.bin'],
        weights: [
          {
            name: 'k',
            shape: [3, 3, 2, 2],
            dtype: 'float32',
            quantization: { dtype: 'uint8', min: -0.5, scale: 1 / 16 },
          },
          { name: 'b', shape: [2], dtype: 'float32' },
          { name: 'one', shape: [], dtype: 'float32' },
          { name: 'two', shape: [], dtype: 'float32' },
        ],
      },
    ],
    signature: { inputs: { x: { name: 'x:0' } }, outputs: { out: { name: 'Identity:0' } } },
  };
  return { json, weights, kernel, bias };
}

/** The same network written out by hand (NHWC, SAME padding). */
function expected(
  x: Float32Array,
  kernel: Float32Array,
  bias: Float32Array,
  ratio: number,
): Float32Array {
  const out = new Float32Array(H * W * 2);
  for (let y = 0; y < H; y++)
    for (let xx = 0; xx < W; xx++)
      for (let o = 0; o < 2; o++) {
        let s = bias[o]!;
        for (let ky = 0; ky < 3; ky++)
          for (let kx = 0; kx < 3; kx++) {
            const iy = y + ky - 1;
            const ix = xx + kx - 1;
            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
            for (let i = 0; i < 2; i++)
              s += x[(iy * W + ix) * 2 + i]! * kernel[((ky * 3 + kx) * 2 + i) * 2 + o]!;
          }
        const r = Math.max(0, s);
        out[(y * W + xx) * 2 + o] = ratio === 1 ? r * 2 : r + 1;
      }
  return out;
}

describe('convertTfjsGraph', () => {
  it('reads uint8-quantised weights', () => {
    const { json, weights, kernel } = tinyGraph();
    expect(Array.from(readWeights(json, weights).get('k')!.data as Float32Array)).toEqual(
      Array.from(kernel),
    );
  });

  it.each([1, 0.5])(
    'fixes ratio = %s: the Switch is decided, the other branch ' +
      'pruned, and onnxruntime computes the network',
    async (ratio) => {
      const { json, weights, kernel, bias } = tinyGraph();
      const bytes = convertTfjsGraph({ json, weights }, { fixed: { ratio } });
      const session = await ort.InferenceSession.create(bytes);
      expect(session.inputNames).toEqual(['x']);
      const x = Float32Array.from({ length: H * W * 2 }, (_, i) => Math.sin(i));
      const out = await session.run({ x: new ort.Tensor('float32', x, [1, H, W, 2]) });
      const got = out.out!.data as Float32Array;
      const want = expected(x, kernel, bias, ratio);
      expect(out.out!.dims).toEqual([1, H, W, 2]);
      for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i]!, 5);
      await session.release();
    },
  );

  it('names an op it cannot convert instead of writing a wrong model', () => {
    const { json, weights } = tinyGraph();
    json.modelTopology.node.push({ name: 'weird', op: 'Cumprod', input: ['merged', 'one'] });
    json.signature!.outputs.out = { name: 'weird:0' };
    expect(() => convertTfjsGraph({ json, weights }, { fixed: { ratio: 1 } })).toThrow(
      /TF op Cumprod \(weird\) is not supported/,
    );
  });
});
