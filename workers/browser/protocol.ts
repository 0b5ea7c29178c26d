/**
 * The typed message protocol between the Studio page (workers/browser/client.ts) and the
 * segmentation Web Worker (segment.worker.ts). Frames travel as transferred ArrayBuffers:
 * the RGBA buffer goes to the worker and comes back with its alpha channel filled in. Frames come
 * back in the order they were sent, up to `latency` frames later (the engine waits for the
 * keyframes after a frame); 'flush' at the end returns the rest.
 */
import type { ApiModel, MatterStats } from '../../engine';

export type Backend = 'webgpu' | 'wasm';

export type ToWorker =
  | { type: 'init'; model: ApiModel; backend: Backend; modelBaseUrl: string; wasmPaths: string }
  | { type: 'frame'; id: number; width: number; height: number; rgba: ArrayBuffer }
  | { type: 'flush' }
  | { type: 'reset' }
  | { type: 'dispose' };

export type FromWorker =
  | { type: 'ready'; backend: Backend; runtime: string; loadMs: number; latency: number }
  | { type: 'matted'; id: number; width: number; height: number; rgba: ArrayBuffer; ms: number; stats: MatterStats }
  | { type: 'error'; id: number | null; phase: 'init' | 'frame'; message: string };
