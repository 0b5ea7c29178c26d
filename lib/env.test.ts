import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvForTests } from './env';

const saved = { ...process.env };
function envWith(vars: Record<string, string>) {
  for (const k of ['INFERENCE_DEVICE', 'WORKER_LANES', 'ORT_EXECUTION_PROVIDER'])
    delete process.env[k];
  Object.assign(process.env, vars);
  resetEnvForTests();
  return env();
}

describe('inference and lane settings', () => {
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
  });

  it('defaults to INFERENCE_DEVICE=auto on both lanes', () => {
    expect(envWith({})).toMatchObject({ INFERENCE_DEVICE: 'auto', WORKER_LANES: ['gpu', 'cpu'] });
  });

  it('reads WORKER_LANES=auto and refuses a lane it does not know', () => {
    expect(envWith({ WORKER_LANES: 'auto' }).WORKER_LANES).toBe('auto');
    expect(() => envWith({ WORKER_LANES: 'gpu,tpu' })).toThrow('WORKER_LANES');
  });

  it(
    'still reads the old ORT_EXECUTION_PROVIDER where ' +
      'INFERENCE_DEVICE is unset, so an upgrade keeps its .env',
    () => {
      expect(envWith({ ORT_EXECUTION_PROVIDER: 'cpu' }).INFERENCE_DEVICE).toBe('cpu');
      expect(
        envWith({ ORT_EXECUTION_PROVIDER: 'cpu', INFERENCE_DEVICE: 'webgpu' }).INFERENCE_DEVICE,
      ).toBe('webgpu');
    },
  );
});
