import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ISNET, SELFIE } from '../../engine/models/catalog';
import { modelFilePath } from '../../lib/models/resolve';
import { prepareModels } from '../../scripts/models/prepare';
import { createOrtNodeRuntime } from '../../lib/inference/ort-node-runtime';

// Real models: prepareModels is a no-op when `npm run setup` has already cached them.
describe('prepared models', () => {
  beforeAll(async () => {
    await prepareModels(() => undefined);
  }, 600_000);

  it('is fast when everything is cached and checksummed', async () => {
    const t = performance.now();
    await prepareModels(() => undefined);
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(fs.statSync(modelFilePath(ISNET.file)).size).toBeGreaterThan(80_000_000);
  });

  it('runs the rewritten ISNet at several input sizes', async () => {
    const session = await createOrtNodeRuntime({ threads: 2 }).load(ISNET);
    for (const [w, h] of [
      [256, 256],
      [320, 192],
    ] as const) {
      const out = await session.run(
        { input: { data: new Float32Array(3 * w * h).fill(0.1), dims: [1, 3, h, w] } },
        ['output'],
      );
      expect(out.output?.dims).toEqual([1, 1, h, w]);
    }
    await session.release();
  });

  it('runs a small model from MODELS_DIR', async () => {
    const session = await createOrtNodeRuntime({ threads: 1 }).load(SELFIE);
    const out = await session.run(
      { 'input_1:0': { data: new Float32Array(256 * 256 * 3).fill(0.5), dims: [1, 256, 256, 3] } },
      ['activation_10'],
    );
    expect(out.activation_10?.dims).toEqual([1, 256, 256, 1]);
    await session.release();
  });

  it(
    'runs models off the main thread: timers keep firing while a ' +
      'run computes, and a bad input fails only its own run',
    async () => {
      const session = await createOrtNodeRuntime({ threads: 1 }).load(ISNET);
      expect(session.inFlight).toBe(1);
      // A run that blocked the main thread would let a 5 ms timer tick once or twice at most.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const t0 = performance.now();
      await session.run(
        { input: { data: new Float32Array(3 * 512 * 512).fill(0.1), dims: [1, 3, 512, 512] } },
        ['output'],
      );
      const ms = performance.now() - t0;
      clearInterval(timer);
      expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 20) - 2);
      await expect(
        session.run({ input: { data: new Float32Array(10), dims: [1, 10] } }, ['output']),
      ).rejects.toThrow(/input/i);
      const out = await session.run(
        { input: { data: new Float32Array(3 * 64 * 64).fill(0.1), dims: [1, 3, 64, 64] } },
        ['output'],
      );
      expect(out.output?.dims).toEqual([1, 1, 64, 64]);
      await session.release();
    },
  );

  it('names the missing file and the fix instead of hanging', () => {
    expect(() => modelFilePath('not-there.onnx')).toThrow(
      /not prepared in MODELS_DIR.*npm run setup/,
    );
    expect(() => modelFilePath('../etc/passwd')).toThrow(/Invalid model file name/);
  });
});
