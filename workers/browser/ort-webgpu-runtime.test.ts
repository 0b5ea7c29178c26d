import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelManifest } from '../../engine/models/manifest';

// onnxruntime-web's WebGPU provider refuses a session creation while another is under way;
// this stand-in refuses the same way, so the test fails if creations ever overlap.
const ort = vi.hoisted(() => {
  let creating = 0;
  const created: string[] = [];
  return {
    created,
    env: { wasm: {}, logLevel: '' },
    Tensor: class {},
    InferenceSession: {
      async create(bytes: Uint8Array) {
        if (creating) throw new Error('another WebGPU EP inference session is being created.');
        creating++;
        await new Promise((r) => setTimeout(r, 5));
        creating--;
        const name = new TextDecoder().decode(bytes);
        if (name === 'broken') throw new Error('unsupported op');
        created.push(name);
        return { release: () => Promise.resolve() };
      },
    },
  };
});
vi.mock('onnxruntime-web/webgpu', () => ort);
vi.mock('./fetch-model', () => ({
  fetchModel: (_base: string, manifest: ModelManifest) =>
    Promise.resolve(new TextEncoder().encode(manifest.id)),
}));

const { createOrtWebGpuRuntime } = await import('./ort-webgpu-runtime');
const manifest = (id: string) => ({ id }) as ModelManifest;

describe('createOrtWebGpuRuntime', () => {
  afterEach(() => ort.created.splice(0));

  it('creates sessions one at a time when models load together', async () => {
    const runtime = createOrtWebGpuRuntime({ modelBaseUrl: '/models/', wasmPaths: '/ort/' });
    await Promise.all(
      ['selfie', 'centernet', 'sam-decoder'].map((id) => runtime.load(manifest(id))),
    );
    expect(ort.created.sort()).toEqual(['centernet', 'sam-decoder', 'selfie']);
  });

  it(
    'rejects the load whose creation fails and still creates the ' + 'ones queued after it',
    async () => {
      const runtime = createOrtWebGpuRuntime({ modelBaseUrl: '/models/', wasmPaths: '/ort/' });
      const [broken, next] = await Promise.allSettled([
        runtime.load(manifest('broken')),
        runtime.load(manifest('selfie')),
      ]);
      expect(broken).toMatchObject({ status: 'rejected', reason: { message: 'unsupported op' } });
      expect(next.status).toBe('fulfilled');
      expect(ort.created).toEqual(['selfie']);
    },
  );
});
