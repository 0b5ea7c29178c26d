import { afterEach, describe, expect, it } from 'vitest';
import { env, resetEnvForTests } from './env';

const saved = { ...process.env };
function envWith(vars: Record<string, string>) {
  for (const k of ['INFERENCE_DEVICE', 'WORKER_LANES', 'ORT_EXECUTION_PROVIDER']) delete process.env[k];
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

  it('says ORT_EXECUTION_PROVIDER was renamed rather than ignoring it', () => {
    expect(() => envWith({ ORT_EXECUTION_PROVIDER: 'cuda' })).toThrow('ORT_EXECUTION_PROVIDER: renamed INFERENCE_DEVICE (auto, cpu, webgpu or cuda)');
  });
});
