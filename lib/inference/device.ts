/**
 * Which device a worker runs its models on (INFERENCE_DEVICE), decided once when the inference
 * thread starts. Pure decision logic: the probes that ask onnxruntime-node are in ort-probes.ts,
 * so tests can answer them.
 */
import type { DEVICE_SETTINGS } from '../env';

export type DeviceSetting = (typeof DEVICE_SETTINGS)[number];
export type InferenceDevice = Exclude<DeviceSetting, 'auto'>;

/** A GPU provider's answer: the adapter it found, or why not. */
export type ProbeResult = { ok: true; adapter: string } | { ok: false; reason: string };

export interface DeviceProbes {
  webgpu(): Promise<ProbeResult>;
  cuda(): Promise<ProbeResult>;
}

export interface DeviceChoice {
  device: InferenceDevice;
  /** The adapter in words ("CPU, 16 threads", a GPU's name). */
  adapter: string;
  /** Why each device that was not chosen was not. */
  notChosen: Partial<Record<InferenceDevice, string>>;
}

export const isGpu = (device: InferenceDevice) => device !== 'cpu';

/**
 * The device for a setting. `auto` takes CUDA when its provider is installed and starts (an
 * operator installs it on purpose, and it is onnxruntime's most complete GPU provider), else
 * WebGPU when a real adapter answers, else the CPU. An explicit GPU that does not answer
 * throws: a worker meant for a GPU must not quietly run 30 times slower on the CPU.
 */
export async function chooseDevice(
  setting: DeviceSetting,
  probes: DeviceProbes,
  cpuAdapter: string,
): Promise<DeviceChoice> {
  if (setting === 'cpu')
    return {
      device: 'cpu',
      adapter: cpuAdapter,
      notChosen: { webgpu: 'INFERENCE_DEVICE=cpu', cuda: 'INFERENCE_DEVICE=cpu' },
    };
  if (setting !== 'auto') {
    const probe = await probes[setting]();
    if (!probe.ok) throw new Error(unavailable(setting, probe.reason));
    const other = setting === 'cuda' ? 'webgpu' : 'cuda';
    return {
      device: setting,
      adapter: probe.adapter,
      notChosen: { [other]: `INFERENCE_DEVICE=${setting}`, cpu: `INFERENCE_DEVICE=${setting}` },
    };
  }
  const notChosen: DeviceChoice['notChosen'] = {};
  for (const device of ['cuda', 'webgpu'] as const) {
    const probe = await probes[device]();
    if (probe.ok)
      return {
        device,
        adapter: probe.adapter,
        notChosen: { ...notChosen, cpu: `${device} answered` },
      };
    notChosen[device] = probe.reason;
  }
  return { device: 'cpu', adapter: cpuAdapter, notChosen };
}

function unavailable(device: 'webgpu' | 'cuda', reason: string): string {
  const fix =
    device === 'webgpu'
      ? 'a WebGPU worker needs a GPU driver with Vulkan support and the Vulkan loader (libvulkan1)'
      : "a CUDA worker needs onnxruntime-node's CUDA provider " +
        '(ONNXRUNTIME_NODE_INSTALL=cuda12) with CUDA 12 and cuDNN 9';
  return (
    `INFERENCE_DEVICE=${device}, but ${reason}: ${fix} ` +
    '(docs/operations.md, "GPU workers"), or set ' +
    'INFERENCE_DEVICE=auto to fall back to the CPU.'
  );
}

/** The ready line's words: "webgpu (NVIDIA H100 80GB HBM3); not cuda: provider not installed". */
export function describeChoice(choice: DeviceChoice): string {
  const nots = Object.entries(choice.notChosen).map(([d, why]) => `not ${d}: ${why}`);
  return [`${choice.device} (${choice.adapter})`, ...nots].join('; ');
}
