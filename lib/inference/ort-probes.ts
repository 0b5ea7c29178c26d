import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import type { DeviceProbes, ProbeResult } from './device';

const { onnx } = onnxProto;

/**
 * The GPU probes onnxruntime-node answers: a one-node model started and run on the provider.
 * Starting the provider is what fails without a GPU (WebGPU: "No supported adapters", also for
 * Debian's software Vulkan, which Dawn refuses), and a run shows that it computes.
 */
export function ortProbes(cudaDevice: number): DeviceProbes {
  return {
    webgpu: () => tryProvider(['webgpu']),
    cuda: () =>
      cudaLibrary()
        ? tryProvider([{ name: 'cuda', deviceId: cudaDevice }])
        : Promise.resolve({
            ok: false,
            reason: "onnxruntime-node's CUDA provider is not installed",
          }),
  };
}

/** The CUDA provider ships as a separate library that only a CUDA-enabled install fetches. */
function cudaLibrary(): string | null {
  try {
    const pkg = path.dirname(
      createRequire(import.meta.url).resolve('onnxruntime-node/package.json'),
    );
    const lib = path.join(
      pkg,
      'bin',
      'napi-v6',
      process.platform,
      process.arch,
      'libonnxruntime_providers_cuda.so',
    );
    return fs.existsSync(lib) ? lib : null;
  } catch {
    return null;
  }
}

async function tryProvider(
  providers: ort.InferenceSession.ExecutionProviderConfig[],
): Promise<ProbeResult> {
  try {
    const session = await ort.InferenceSession.create(probeModel(), {
      executionProviders: providers,
      logSeverityLevel: 4,
    });
    await session.run({ x: new ort.Tensor('float32', Float32Array.of(-1, 2), [1, 2]) });
    await session.release();
    return { ok: true, adapter: gpuName() ?? 'adapter not named by onnxruntime-node' };
  } catch (e) {
    return { ok: false, reason: ortReason(e) };
  }
}

/** A model of one Relu, the smallest graph a provider must start for. */
function probeModel(): Uint8Array {
  const info = (name: string) => ({
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: [{ dimValue: 1 }, { dimValue: 2 }] },
      },
    },
  });
  const graph = onnx.GraphProto.create({
    name: 'probe',
    node: [{ opType: 'Relu', input: ['x'], output: ['y'] }],
    input: [info('x')],
    output: [info('y')],
  });
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph }),
  ).finish();
}

/**
 * onnxruntime's message without its source location: "…webgpu_context.cc:136 … was false.
 * Failed to get a WebGPU adapter: No supported adapters" → the part after "was false.".
 */
export function ortReason(e: unknown): string {
  const first = (e instanceof Error ? e.message : String(e)).trim().split('\n')[0]!;
  const cut = first.lastIndexOf(' was false. ');
  return (cut >= 0 ? first.slice(cut + ' was false. '.length) : first).trim();
}

/**
 * onnxruntime-node does not say which adapter Dawn or CUDA picked; NVIDIA's driver lists its
 * GPUs, which on a one-GPU server names it.
 */
function gpuName(): string | null {
  try {
    const dir = '/proc/driver/nvidia/gpus';
    const names = fs
      .readdirSync(dir)
      .map((g) =>
        /^Model:\s*(.+)$/m
          .exec(fs.readFileSync(path.join(dir, g, 'information'), 'utf8'))?.[1]
          ?.trim(),
      );
    const known = names.filter((n): n is string => Boolean(n));
    return known.length ? known.join(', ') : null;
  } catch {
    return null;
  }
}
