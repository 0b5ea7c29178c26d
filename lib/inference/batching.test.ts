import { describe, expect, it } from 'vitest';
import { ISNET } from '../../engine/models/catalog';
import type { TensorData } from '../../engine/runtime';
import { batchRuns } from './batching';
import { createOrtNodeRuntime } from './ort-node-runtime';

/** A 64×64 frame for ISNet (it runs at any multiple of 32), different for each seed. */
const frame = (seed: number): Record<string, TensorData> => {
  const data = new Float32Array(3 * 64 * 64);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.01 * seed) * 2;
  return { [ISNET.input.name]: { data, dims: [1, 3, 64, 64] } };
};

// The real model on the CPU: keyframes run several to a batch (as GPU workers do) give exactly
// what they give one at a time.
describe('keyframes batched into one model run', () => {
  it(
    'returns each frame its own result, identical to running it ' + 'alone, in fewer model runs',
    async () => {
      const single = await createOrtNodeRuntime({ threads: 1, batch: 1 }).load(ISNET);
      // Loaded for batches (its batch dimension freed), counting the runs that reach the model.
      const model = await createOrtNodeRuntime({ threads: 1, batch: 2 }).load(ISNET);
      expect(model.inFlight).toBe(4);
      let runs = 0;
      const batched = batchRuns(
        { ...model, run: (feeds, outputs) => (runs++, model.run(feeds, outputs)) },
        2,
      );
      const seeds = [1, 2, 3, 4, 5];
      const alone: TensorData[] = [];
      for (const s of seeds)
        alone.push((await single.run(frame(s), [ISNET.output.name]))[ISNET.output.name]!);
      const together = await Promise.all(
        seeds.map((s) => batched.run(frame(s), [ISNET.output.name])),
      );
      // The first frame alone (nothing else waited yet), then two batches of two.
      expect(runs).toBe(3);
      for (const [i, out] of together.entries()) {
        const t = out[ISNET.output.name]!;
        expect(t.dims).toEqual(alone[i]!.dims);
        expect(Array.from(t.data)).toEqual(Array.from(alone[i]!.data));
      }
      await Promise.all([single.release(), model.release()]);
    },
    120_000,
  );
});
