import type * as ort from 'onnxruntime-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELFIE } from '../../engine/models/catalog';
import type { TensorData } from '../../engine/runtime';
import {
  createLocalOrtNodeRuntime,
  ortSessions,
  type LocalOrtOptions,
  type SessionMaker,
} from './ort-node-local';

const OPTIONS: LocalOrtOptions = { threads: 1, device: 'auto', cudaDevice: 0 };
const frame = (): Record<string, TensorData> => ({
  [SELFIE.input.name]: {
    data: new Float32Array(256 * 256 * 3).map((_, i) => (i % 7) / 7),
    dims: [1, 256, 256, 3],
  },
});
const run = async (session: {
  run: (f: Record<string, TensorData>, o: readonly string[]) => Promise<Record<string, TensorData>>;
}) =>
  Array.from(
    (await session.run(frame(), [SELFIE.output.name]))[SELFIE.output.name]!.data.slice(0, 64),
  );

/**
 * The test seam: a machine whose WebGPU adapter answers, with onnxruntime-node's real CPU
 * sessions, and a GPU provider that refuses the selfie model's graph, at its start or at its
 * first run.
 */
function gpuThatRefuses(when: 'start' | 'run'): SessionMaker {
  const real = ortSessions(OPTIONS);
  return {
    probes: {
      webgpu: () => Promise.resolve({ ok: true, adapter: 'Test GPU' }),
      cuda: () => Promise.resolve({ ok: false, reason: 'not installed' }),
    },
    async create(model, device) {
      if (device === 'cpu') return real.create(model, 'cpu');
      if (when === 'start')
        throw new Error(
          'webgpu_execution_provider.cc:1 Compile was false. Resize with ' +
            'these attributes is not supported',
        );
      const session = await real.create(model, 'cpu');
      return Object.assign(Object.create(session) as ort.InferenceSession, {
        run: () => Promise.reject(new Error('Shader compilation failed')),
        release: () => session.release(),
      });
    },
  };
}

describe('per-model fallback from a GPU provider to the CPU', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['cannot start its graph', 'start' as const, 'Resize with these attributes is not supported'],
    ['fails its first run', 'run' as const, 'Shader compilation failed'],
  ])(
    'a model the GPU %s runs on the CPU with one log line naming it and why',
    async (_, when, reason) => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const runtime = createLocalOrtNodeRuntime(OPTIONS, gpuThatRefuses(when));
      await expect(runtime.device()).resolves.toMatchObject({
        device: 'webgpu',
        adapter: 'Test GPU',
      });
      const session = await runtime.load(SELFIE);
      const cpu = await createLocalOrtNodeRuntime({ ...OPTIONS, device: 'cpu' }).load(SELFIE);
      const expected = await run(cpu);
      expect(await run(session)).toEqual(expected);
      expect(await run(session)).toEqual(expected);
      expect(errors.mock.calls).toEqual([
        [`[inference] selfie runs on the CPU: the webgpu provider cannot run it (${reason})`],
      ]);
      expect(runtime.name).toBe('onnxruntime-node (webgpu)');
      await Promise.all([session.release(), cpu.release()]);
    },
  );
});
