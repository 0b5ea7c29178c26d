import type { Lane } from './job-kinds';

/** WORKER_LANES: the lanes listed, or `auto`. */
export type LaneSetting = 'auto' | readonly Lane[];

/**
 * The lanes a worker takes. Listed lanes are taken whatever the device: the default `gpu,cpu`
 * is what lets a CPU-only install's one worker segment at all, since nothing else would take
 * the `gpu` lane. `auto` is for fleets of GPU and CPU machines: every worker takes `cpu`, and
 * only those whose models run on a GPU take `gpu`, so segmentation waits for a GPU instead of
 * running 30 times slower on a CPU machine that happened to be free.
 */
export function resolveLanes(setting: LaneSetting, onGpu: boolean): Lane[] {
  if (setting !== 'auto') return [...setting];
  return onGpu ? ['gpu', 'cpu'] : ['cpu'];
}

/**
 * Whether the worker must know its inference device before it claims work: it runs models, or its
 * lanes depend on them.
 */
export const needsDevice = (setting: LaneSetting) => setting === 'auto' || setting.includes('gpu');
