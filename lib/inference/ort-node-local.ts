import fs from 'node:fs';
import * as ort from 'onnxruntime-node';
import type { InferenceSession, ModelFile } from '../../engine/runtime';
import { modelFilePath } from '../models/resolve';
import { runFloat32 } from '../../engine/ort-run';
import { freeBatchDim } from './batch-dim';
import { batchable } from './batching';
import {
  chooseDevice,
  isGpu,
  type DeviceChoice,
  type DeviceProbes,
  type DeviceSetting,
  type InferenceDevice,
} from './device';
import { ortProbes, ortReason } from './ort-probes';
import type { ServedRuntime, ServedSession } from './runtime-rpc';

export interface LocalOrtOptions {
  threads: number;
  /** INFERENCE_DEVICE. */
  device: DeviceSetting;
  /** ORT_CUDA_DEVICE: which GPU the CUDA provider uses. */
  cudaDevice: number;
  /**
   * ORT_BATCH: keyframes per model run; unset, GPU_BATCH on a GPU and 1 on the CPU. Above 1,
   * batchable models are loaded with a free batch dimension.
   */
  batch?: number;
}

/**
 * Keyframes per model run on a GPU unless ORT_BATCH says otherwise: a GPU computes 4 in little more
 * time than one.
 */
const GPU_BATCH = 4;

/** How sessions are started: onnxruntime-node itself, or a test's stand-in that refuses some. */
export interface SessionMaker {
  probes: DeviceProbes;
  create(model: string | Uint8Array, device: InferenceDevice): Promise<ort.InferenceSession>;
}

/** onnxruntime-node's own sessions, with the options every worker uses. */
export function ortSessions(opts: LocalOrtOptions): SessionMaker {
  const providers: Record<InferenceDevice, ort.InferenceSession.ExecutionProviderConfig[]> = {
    cpu: ['cpu'],
    webgpu: ['webgpu', 'cpu'],
    cuda: [{ name: 'cuda', deviceId: opts.cudaDevice }, 'cpu'],
  };
  return {
    probes: ortProbes(opts.cudaDevice),
    create(model, device) {
      const options: ort.InferenceSession.SessionOptions = {
        executionProviders: providers[device],
        graphOptimizationLevel: 'all',
        // The arena keeps ISNet's peak intermediates (~700 MB at 1024²) between frames; without it
        // a worker on 1080p stays near 1 GB instead of 1.6 GB (docs/engine.md).
        enableCpuMemArena: false,
        logSeverityLevel: 4,
        intraOpNumThreads: opts.threads,
        interOpNumThreads: 1,
        // Idle pool threads spin-wait by default, taking the cores the main thread is refining
        // other frames on meanwhile: service-human ran at 29 fps spinning, 40 fps without.
        extra: { session: { intra_op: { allow_spinning: '0' } } },
      };
      return typeof model === 'string'
        ? ort.InferenceSession.create(model, options)
        : ort.InferenceSession.create(model, options);
    },
  };
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);

/**
 * onnxruntime-node on the calling thread, on the device INFERENCE_DEVICE names or `auto` finds
 * (device.ts), chosen once, at the first `device()` or `load()`. A model whose graph the GPU
 * provider cannot start or run goes to the CPU, for that model alone, with one log line; each
 * model's first run on a GPU (shader compilation, weight upload) is logged with its time.
 * Model files come from MODELS_DIR; a missing one is a clear error, never a download. Used
 * inside the inference thread (ort-thread.ts): run() blocks the thread that calls it.
 */
export function createLocalOrtNodeRuntime(
  opts: LocalOrtOptions,
  maker: SessionMaker = ortSessions(opts),
): ServedRuntime {
  let choice: Promise<DeviceChoice> | null = null;
  const runtime: ServedRuntime = {
    name: 'onnxruntime-node',
    device() {
      choice ??= chooseDevice(
        opts.device,
        maker.probes,
        `CPU, ${opts.threads} thread${opts.threads === 1 ? '' : 's'}`,
      ).then((c) => {
        runtime.name = `onnxruntime-node (${c.device})`;
        return c;
      });
      return choice;
    },
    async load(manifest: ModelFile): Promise<ServedSession> {
      const { device } = await runtime.device();
      const batch = batchable(manifest) ? (opts.batch ?? (isGpu(device) ? GPU_BATCH : 1)) : 1;
      const file = modelFilePath(manifest.file);
      const model = batch > 1 ? freeBatchDim(fs.readFileSync(file)) : file;
      return { ...(await modelSession(manifest.id, model, device, maker)), batch };
    },
  };
  return runtime;
}

/**
 * One model's session on `device`, moved to the CPU for good if the GPU provider refuses to
 * start it or fails a run (the run is then repeated on the CPU).
 */
async function modelSession(
  id: string,
  model: string | Uint8Array,
  device: InferenceDevice,
  maker: SessionMaker,
): Promise<InferenceSession> {
  const onCpu = () => maker.create(model, 'cpu');
  const fallBack = (e: unknown) =>
    console.error(
      `[inference] ${id} runs on the CPU: the ${device} provider cannot run it (${ortReason(e)})`,
    );
  let session: ort.InferenceSession;
  let gpu = isGpu(device);
  if (gpu) {
    const started = performance.now();
    try {
      session = await maker.create(model, device);
      console.log(`[inference] ${id} on ${device}: session started in ${seconds(started)} s`);
    } catch (e) {
      fallBack(e);
      gpu = false;
      session = await onCpu();
    }
  } else session = await onCpu();
  let firstRun = gpu;
  return {
    async run(feeds, outputs) {
      if (!gpu) return runFloat32(ort.Tensor, session, feeds, outputs);
      const started = performance.now();
      try {
        const out = await runFloat32(ort.Tensor, session, feeds, outputs);
        if (firstRun)
          console.log(
            `[inference] ${id} on ${device}: first run ${seconds(started)} ` +
              's (shaders compiled, weights uploaded; later runs reuse them)',
          );
        firstRun = false;
        return out;
      } catch (e) {
        fallBack(e);
        gpu = false;
        const broken = session;
        session = await onCpu();
        // Whatever state the failed GPU session is in, the CPU one carries on.
        broken.release().catch(() => undefined);
        return runFloat32(ort.Tensor, session, feeds, outputs);
      }
    },
    release: () => session.release(),
  };
}
