/**
 * The typed message protocol between the Studio page (workers/browser/client.ts) and the
 * segmentation Web Worker (segment.worker.ts). Frames travel as transferred ArrayBuffers:
 * the RGBA buffer goes to the worker and comes back with its alpha channel filled in. Frames come
 * back in the order they were sent, up to `latency` frames later (the engine waits for the
 * keyframes after a frame); 'flush' at the end returns the rest.
 */
import type { ApiModel, MatterStats, PeopleModel } from '../../engine';

export type Backend = 'webgpu' | 'wasm';

export type ToWorker =
  | {
      type: 'init';
      model: ApiModel;
      /**
       * service-human: run this people model, instead of deciding by a timed run on this device.
       */
      people: PeopleModel | null;
      /** The video's frame size (the decision times the model at the size it will run). */
      frame: { width: number; height: number };
      backend: Backend;
      modelBaseUrl: string;
      wasmPaths: string;
    }
  /**
   * `work`: the same frame already scaled to the engine's working size (the page's canvas does it
   * faster than JS).
   */
  | {
      type: 'frame';
      id: number;
      width: number;
      height: number;
      rgba: ArrayBuffer;
      work: { rgba: ArrayBuffer; width: number; height: number } | null;
    }
  | { type: 'flush' }
  | { type: 'reset' }
  | { type: 'dispose' };

export interface WorkerReady {
  type: 'ready';
  backend: Backend;
  runtime: string;
  loadMs: number;
  /** Frames the engine holds back before their alpha comes out (keep this many in flight). */
  latency: number;
  /**
   * The engine's working size for this video: frames sent along at this size save the engine
   * scaling them.
   */
  workSize: [number, number];
  /** The model that runs, and why (service-human: chosen by timing RVM on this device). */
  modelName: string;
  modelReason: string;
}

export type FromWorker =
  | WorkerReady
  /**
   * `busyMs`: the worker's time on frames so far (engine and writing alphas back), all frames
   * together.
   */
  | {
      type: 'matted';
      id: number;
      width: number;
      height: number;
      rgba: ArrayBuffer;
      busyMs: number;
      stats: MatterStats;
    }
  | { type: 'error'; id: number | null; phase: 'init' | 'frame'; message: string };
