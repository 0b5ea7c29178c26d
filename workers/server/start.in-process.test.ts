import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ortProbes } from '../../lib/inference/ort-probes';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-worker-start-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * Starts `npm run worker` (MALLOC_ARENA_MAX set: the launcher runs the worker itself, no child to
 * orphan); resolves with its output once it exits or prints its ready line (then stops it).
 */
function startWorker(extra: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ORT_THREADS: '1',
    MALLOC_ARENA_MAX: '1',
  };
  for (const k of [
    'INFERENCE_DEVICE',
    'WORKER_LANES',
    'DATABASE_URL',
    'QUEUE_PROVIDER',
    'STORAGE_PROVIDER',
  ])
    delete env[k];
  Object.assign(env, extra);
  const child = spawn(process.execPath, [path.join(root, 'bin/worker.mjs')], { cwd: root, env });
  let out = '';
  const read = (d: Buffer) => {
    out += d.toString();
    if (/ ready \(/.test(out)) child.kill('SIGTERM');
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

// These machines have no GPU: WebGPU answers "No supported adapters". Where one answers, the
// fallback cannot be shown.
const gpuHere = (await ortProbes(0).webgpu()).ok;

describe.skipIf(gpuHere)('the worker on a machine without a GPU', () => {
  it('refuses to start with INFERENCE_DEVICE=webgpu, saying why and what to do', async () => {
    const { code, out } = await startWorker({ INFERENCE_DEVICE: 'webgpu' });
    expect(code).toBe(1);
    expect(out).toContain(
      '[worker] refusing to start: INFERENCE_DEVICE=webgpu, but ' +
        'Failed to get a WebGPU adapter: No supported adapters: a ' +
        'WebGPU worker needs a GPU driver with Vulkan support and the ' +
        'Vulkan loader (libvulkan1)',
    );
  });

  it(
    'with INFERENCE_DEVICE=auto runs on the CPU, and its ready line ' + 'says why not the GPUs',
    async () => {
      const { out } = await startWorker({ WORKER_LANES: 'auto' });
      const ready = /\[worker\] \S+ ready \((.*)\)/.exec(out)?.[1];
      expect(ready).toMatch(/lanes cpu \(auto\).*; inference cpu \(CPU, 1 thread\); not cuda: /);
      expect(ready).toMatch(
        /; not cuda: onnxruntime-node's CUDA provider is not installed; not webgpu: /,
      );
      expect(ready).toMatch(/; not webgpu: Failed to get a WebGPU adapter: No supported adapters$/);
    },
  );
});
