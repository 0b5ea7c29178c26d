import { describe, expect, it } from 'vitest';
import { ISNET, PAN_PARTS, SELFIE, SINET } from './catalog';
import { decodeOutput, modelInputSize, toInputTensor } from './io';

describe('model input and output', () => {
  it('normalises per the manifest in NCHW and NHWC, swapping to BGR when asked', () => {
    const planes = [new Float32Array([255]), new Float32Array([128]), new Float32Array([0])];
    expect(Array.from(toInputTensor(planes, 1, 1, ISNET).data)).toEqual([127 / 256, 0, -0.5]);
    expect(toInputTensor(planes, 1, 1, SELFIE).dims).toEqual([1, 1, 1, 3]);
    const bgr = toInputTensor(planes, 1, 1, SINET).data;
    expect(bgr[0]).toBeCloseTo((0 - SINET.input.mean[0]) / SINET.input.std[0]);
  });

  it('picks flexible sizes in multiples of 32 and fixed sizes as declared', () => {
    expect(modelInputSize(ISNET, 500, { width: 854, height: 480 }, false)).toEqual([512, 512]);
    expect(modelInputSize(ISNET, 512, { width: 854, height: 480 }, true)).toEqual([512, 288]);
    expect(modelInputSize(SINET, 512, { width: 854, height: 480 }, true)).toEqual([320, 320]);
  });

  it('reads a softmax channel and a union of part channels', () => {
    const sinet = decodeOutput(
      { data: new Float32Array([0.9, 0.2, 0.1, 0.8]), dims: [1, 2, 1, 2] },
      SINET,
    );
    expect(Array.from(sinet.data)).toEqual([0.10000000149011612, 0.800000011920929]);
    const pan = decodeOutput(
      { data: new Float32Array([0.1, 0.7, 0.3, 0.2, 0, 0]), dims: [1, 3, 1, 2] },
      PAN_PARTS,
    );
    expect(Array.from(pan.data).map((v) => Number(v.toFixed(2)))).toEqual([0.3, 0.7]);
  });
});
