import { describe, expect, it } from 'vitest';
import { chooseDevice, describeChoice, type DeviceProbes } from './device';
import { ortReason } from './ort-probes';

const NO_ADAPTER = 'Failed to get a WebGPU adapter: No supported adapters';
const NO_CUDA = "onnxruntime-node's CUDA provider is not installed";

/** Probes answering as this build machine does (no GPU), or with the GPUs named. */
const probes = (gpus: { webgpu?: string; cuda?: string } = {}): DeviceProbes => ({
  webgpu: () =>
    Promise.resolve(
      gpus.webgpu ? { ok: true, adapter: gpus.webgpu } : { ok: false, reason: NO_ADAPTER },
    ),
  cuda: () =>
    Promise.resolve(gpus.cuda ? { ok: true, adapter: gpus.cuda } : { ok: false, reason: NO_CUDA }),
});

describe('INFERENCE_DEVICE', () => {
  it('auto picks the CPU when no adapter answers, and says why not the GPUs', async () => {
    const choice = await chooseDevice('auto', probes(), 'CPU, 2 threads');
    expect(choice).toEqual({
      device: 'cpu',
      adapter: 'CPU, 2 threads',
      notChosen: { cuda: NO_CUDA, webgpu: NO_ADAPTER },
    });
    expect(describeChoice(choice)).toBe(
      `cpu (CPU, 2 threads); not cuda: ${NO_CUDA}; not webgpu: ${NO_ADAPTER}`,
    );
  });

  it(
    'auto takes WebGPU when an adapter answers, and CUDA before it ' +
      'when its provider is installed',
    async () => {
      await expect(chooseDevice('auto', probes({ webgpu: 'NVIDIA H100' }), 'CPU')).resolves.toEqual(
        {
          device: 'webgpu',
          adapter: 'NVIDIA H100',
          notChosen: { cuda: NO_CUDA, cpu: 'webgpu answered' },
        },
      );
      await expect(
        chooseDevice('auto', probes({ webgpu: 'NVIDIA H100', cuda: 'NVIDIA H100' }), 'CPU'),
      ).resolves.toMatchObject({ device: 'cuda' });
    },
  );

  it('an explicit webgpu with no adapter is refused with what to do', async () => {
    await expect(chooseDevice('webgpu', probes(), 'CPU')).rejects.toThrow(
      `INFERENCE_DEVICE=webgpu, but ${NO_ADAPTER}: a WebGPU worker ` +
        'needs a GPU driver with Vulkan support and the Vulkan loader ' +
        '(libvulkan1) (docs/operations.md, "GPU workers"), or set ' +
        'INFERENCE_DEVICE=auto to fall back to the CPU.',
    );
    await expect(chooseDevice('cuda', probes({ webgpu: 'NVIDIA H100' }), 'CPU')).rejects.toThrow(
      `INFERENCE_DEVICE=cuda, but ${NO_CUDA}`,
    );
  });

  it('cpu asks no GPU', async () => {
    const never = {
      webgpu: () => Promise.reject(new Error('probed')),
      cuda: () => Promise.reject(new Error('probed')),
    };
    await expect(chooseDevice('cpu', never, 'CPU')).resolves.toMatchObject({ device: 'cpu' });
  });

  it("keeps onnxruntime's reason and drops its source location", () => {
    const raw =
      '/onnxruntime_src/onnxruntime/core/providers/webgpu/webgpu_context.cc:' +
      '136 onnxruntime::webgpu::WebGpuContext::Initialize(const ' +
      'onnxruntime::webgpu::WebGpuContextConfig&)::<lambda()> ' +
      'adapter_result.status == wgpu::RequestAdapterStatus::Success ' +
      'was false. Failed to get a WebGPU adapter: No supported ' +
      'adapters\n';
    expect(ortReason(new Error(raw))).toBe(NO_ADAPTER);
    expect(ortReason(new Error('plain message'))).toBe('plain message');
  });
});
