import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { RVM } from '../../engine/models/catalog';
import type { ModelSourceNpmTfjs } from '../../engine/models/manifest';
import { env } from '../../lib/env';
import { prepareModels } from '../../scripts/models/prepare';
import { modelFilePath } from '../../lib/models/resolve';
import { convertTfjsGraph, type TfjsModelJson } from '../../scripts/models/tfjs-graph-to-onnx';

const run = promisify(execFile);
const CLIP = path.resolve(
  import.meta.dirname,
  '../../../shared/testdata/videos/liveportrait_d10_long_black_hair_512.mp4',
);
const SIDE = 256;
const FRAMES = 3;
const source = RVM.source as ModelSourceNpmTfjs;
const sources = () =>
  path.join(env().modelsDir, 'sources', source.package.replace(/[^A-Za-z0-9.@-]+/g, '_'));
const STATE = ['r1', 'r2', 'r3', 'r4'];

/** Consecutive real frames (a person with long hair) as NHWC floats in 0..1. */
async function frames(): Promise<Float32Array[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      CLIP,
      '-frames:v',
      String(FRAMES),
      '-vf',
      `scale=${SIDE}:${SIDE}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  const n = SIDE * SIDE * 3;
  return Array.from({ length: FRAMES }, (_, f) =>
    Float32Array.from(stdout.subarray(f * n, (f + 1) * n), (v) => v / 255),
  );
}

/** The TFJS original, run by TensorFlow.js itself (WASM backend), recurrent state carried along. */
async function tfjsAlphas(
  json: TfjsModelJson,
  weights: Buffer,
  ratio: number,
  inputs: Float32Array[],
): Promise<Float32Array[]> {
  const model = await loadGraphModel({
    load: () =>
      Promise.resolve({
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
        weightData: new Uint8Array(weights).buffer,
        format: json.format,
        signature: json.signature,
      }),
  });
  let state: Record<string, tf.Tensor> = Object.fromEntries(
    STATE.map((s) => [`${s}i`, tf.scalar(0)]),
  );
  const out: Float32Array[] = [];
  for (const px of inputs) {
    const names = ['pha', ...STATE.map((s) => `${s}o`)].map(
      (k) => json.signature!.outputs[k]!.name,
    );
    const res = (await model.executeAsync(
      { src: tf.tensor(px, [1, SIDE, SIDE, 3]), downsample_ratio: tf.scalar(ratio), ...state },
      names,
    )) as tf.Tensor[];
    out.push((await res[0]!.data()) as Float32Array);
    state = Object.fromEntries(STATE.map((s, i) => [`${s}i`, res[i + 1]!]));
  }
  return out;
}

async function onnxAlphas(
  model: string | Uint8Array,
  inputs: Float32Array[],
): Promise<Float32Array[]> {
  const session = await ort.InferenceSession.create(model as string, {
    intraOpNumThreads: 2,
    logSeverityLevel: 3,
  });
  let state: Record<string, ort.Tensor> = Object.fromEntries(
    STATE.map((s) => [`${s}i`, new ort.Tensor('float32', new Float32Array(1), [1, 1, 1, 1])]),
  );
  const out: Float32Array[] = [];
  for (const px of inputs) {
    const res = await session.run({
      src: new ort.Tensor('float32', px, [1, SIDE, SIDE, 3]),
      ...state,
    });
    out.push(res.pha!.data as Float32Array);
    state = Object.fromEntries(STATE.map((s) => [`${s}i`, res[`${s}o`]!]));
  }
  await session.release();
  return out;
}

function compare(a: Float32Array, b: Float32Array) {
  let max = 0;
  let subject = 0;
  for (let i = 0; i < a.length; i++) {
    max = Math.max(max, Math.abs(a[i]! - b[i]!));
    if (a[i]! >= 0.5) subject++;
  }
  return { max, subjectShare: subject / a.length };
}

describe.skipIf(!fs.existsSync(CLIP))('Robust Video Matting converted from its TFJS graph', () => {
  let json: TfjsModelJson;
  let weights: Buffer;
  let inputs: Float32Array[];
  beforeAll(async () => {
    await prepareModels(() => undefined);
    json = JSON.parse(fs.readFileSync(path.join(sources(), 'rvm.json'), 'utf8')) as TfjsModelJson;
    weights = fs.readFileSync(path.join(sources(), 'rvm.bin'));
    inputs = await frames();
    const wasmPackage = createRequire(import.meta.url).resolve(
      '@tensorflow/tfjs-backend-wasm/package.json',
    );
    setWasmPaths(`${path.dirname(wasmPackage)}/dist/`);
    await tf.setBackend('wasm');
  }, 600_000);

  it(
    'the prepared ONNX model (downsample_ratio 1) gives TFJS’s ' +
      'alpha on real frames, state carried frame to frame',
    async () => {
      const expected = await tfjsAlphas(json, weights, 1, inputs);
      const got = await onnxAlphas(modelFilePath(RVM.file), inputs);
      for (let f = 0; f < FRAMES; f++) {
        const c = compare(expected[f]!, got[f]!);
        // the person is there: not a trivially equal empty matte
        expect(c.subjectShare).toBeGreaterThan(0.2);
        expect(c.max).toBeLessThan(1e-3);
      }
    },
  );

  it(
    'fixing another downsample_ratio keeps the other branch (resize ' +
      'and refiner), and still agrees',
    async () => {
      const model = convertTfjsGraph(
        { json, weights },
        { fixed: { downsample_ratio: 0.5 }, outputs: ['pha', ...STATE.map((s) => `${s}o`)] },
      );
      const expected = await tfjsAlphas(json, weights, 0.5, inputs);
      const got = await onnxAlphas(model, inputs);
      for (let f = 0; f < FRAMES; f++)
        expect(compare(expected[f]!, got[f]!).max).toBeLessThan(1e-3);
    },
  );

  it('refuses a graph whose control flow is not fixed, naming why', () => {
    expect(() => convertTfjsGraph({ json, weights }, {})).toThrow(
      /Switch on a value that is not fixed/,
    );
  });
});
