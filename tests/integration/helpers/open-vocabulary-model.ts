import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import type { OpenVocabularyManifest } from '../../../engine/prompts/open-vocabulary';

const { onnx } = onnxProto;
const DT = onnx.TensorProto.DataType;

/**
 * The fixture's vocabulary, one token per line (line number = id); `</w>` marks CLIP-style whole
 * words.
 */
const VOCABULARY = [
  '<pad>',
  '<start>',
  '<end>',
  'the',
  'a',
  'red',
  'green',
  'blue',
  'thing</w>',
  'square</w>',
];
/**
 * Per token, what it adds to the logit of a pixel per unit of R, G, B (0..1): colour words, and
 * neutral others.
 */
const WEIGHTS: Record<string, [number, number, number]> = {
  red: [12, -12, -12],
  green: [-12, 12, -12],
  blue: [-12, -12, 12],
};
export const FIXTURE_SIZE = 64;
const MAX_TOKENS = 8;

/**
 * A tiny but genuine open-vocabulary segmenter under the slot's contract (engine/prompts/
 * open-vocabulary.ts), built with onnx-proto at test time: each token has an embedding of three
 * colour weights (Gather), the attention mask zeroes the padding, the phrase's weights are
 * summed, and each pixel's logit is that weight vector dotted with its RGB. So "the red thing"
 * lights up red pixels, and "green" green ones. Writes the model, its vocabulary and
 * open-vocabulary.json into `dir` (a MODELS_DIR) and returns the manifest.
 */
export function writeColourWordsModel(dir: string): OpenVocabularyManifest {
  const table = new Float32Array(VOCABULARY.length * 3);
  VOCABULARY.forEach((t, i) => table.set(WEIGHTS[t] ?? [0, 0, 0], i * 3));
  const tensor = (
    name: string,
    dims: number[],
    data: Float32Array | BigInt64Array,
    dataType: number,
  ) =>
    onnx.TensorProto.create({
      name,
      dims,
      dataType,
      rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
  const node = (
    opType: string,
    input: string[],
    output: string,
    attribute: onnxProto.onnx.IAttributeProto[] = [],
  ) => onnx.NodeProto.create({ opType, input, output: [output], attribute });
  const value = (name: string, elemType: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType,
          shape: {
            dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
          },
        },
      },
    });
  const S = FIXTURE_SIZE;
  const graph = onnx.GraphProto.create({
    name: 'colour-words',
    node: [
      node('Gather', ['embedding', 'input_ids'], 'token_weights'), // [1, T, 3]
      node('Cast', ['attention_mask'], 'mask_f', [
        onnx.AttributeProto.create({
          name: 'to',
          type: onnx.AttributeProto.AttributeType.INT,
          i: DT.FLOAT,
        }),
      ]),
      node('Unsqueeze', ['mask_f', 'axis_2'], 'mask_3'), // [1, T, 1]
      node('Mul', ['token_weights', 'mask_3'], 'kept'),
      node('ReduceSum', ['kept', 'axis_1'], 'phrase'), // [1, 1, 3]
      node('Reshape', ['phrase', 'nchw_weights'], 'weights'), // [1, 3, 1, 1]
      node('Mul', ['pixel_values', 'weights'], 'weighted'),
      node('ReduceSum', ['weighted', 'axis_1'], 'score'), // [1, 1, S, S]
      node('Reshape', ['score', 'out_shape'], 'logits'), // [1, S, S]
    ],
    initializer: [
      tensor('embedding', [VOCABULARY.length, 3], table, DT.FLOAT),
      tensor('axis_1', [1], BigInt64Array.of(1n), DT.INT64),
      tensor('axis_2', [1], BigInt64Array.of(2n), DT.INT64),
      tensor('nchw_weights', [4], BigInt64Array.of(1n, 3n, 1n, 1n), DT.INT64),
      tensor('out_shape', [3], BigInt64Array.of(1n, BigInt(S), BigInt(S)), DT.INT64),
    ],
    input: [
      value('pixel_values', DT.FLOAT, [1, 3, S, S]),
      value('input_ids', DT.INT64, [1, 'tokens']),
      value('attention_mask', DT.INT64, [1, 'tokens']),
    ],
    output: [value('logits', DT.FLOAT, [1, S, S])],
  });
  const bytes = onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'keyout test fixture',
      opsetImport: [{ domain: '', version: 17 }],
      graph,
    }),
  ).finish();
  const manifest: OpenVocabularyManifest = {
    id: 'colour-words',
    file: 'colour-words.onnx',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    license: 'AGPL-3.0 (a test fixture of this repository)',
    image: { size: S, mean: [0, 0, 0], std: [1, 1, 1] },
    text: { vocabulary: 'colour-words.vocab.txt', maxTokens: MAX_TOKENS, bos: 1, eos: 2, pad: 0 },
    output: 'logits',
  };
  fs.writeFileSync(path.join(dir, manifest.file), bytes);
  fs.writeFileSync(path.join(dir, manifest.text.vocabulary), `${VOCABULARY.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'open-vocabulary.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}
