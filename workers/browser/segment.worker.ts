/// <reference lib="webworker" />
/**
 * The Studio's segmentation worker: only switches on the typed protocol (protocol.ts). The
 * engine does the work; the runtime is WebGPU or WASM as the page asked.
 */
import {
  createVideoMatter,
  PEOPLE_TIERS,
  tierFor,
  withManifest,
  workSize,
  type VideoMatter,
} from '../../engine';
import { apiModel } from '../../engine/api-models';
import { estimateForeground } from '../../engine/matte/foreground';
import { choosePeopleModel, PEOPLE_TITLES } from './people-model';
import type { Backend, FromWorker, ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let matter: VideoMatter | null = null;
/** Frames handed to the engine whose alpha has not come back yet, oldest first. */
let inFlight: { id: number; width: number; height: number; rgba: ArrayBuffer }[] = [];
/** The worker's time on frames so far: engine, writing alphas back and the edges' colour. */
let busyMs = 0;
// Frames are handled strictly one after another: the matter keeps temporal state.
let queue: Promise<void> = Promise.resolve();

const post = (msg: FromWorker, transfer: Transferable[] = []) => self.postMessage(msg, transfer);

async function runtimeFor(backend: Backend, modelBaseUrl: string, wasmPaths: string) {
  if (backend === 'webgpu') {
    const { createOrtWebGpuRuntime } = await import('./ort-webgpu-runtime');
    return createOrtWebGpuRuntime({ modelBaseUrl, wasmPaths });
  }
  const { createOrtWebRuntime } = await import('./ort-web-runtime');
  return createOrtWebRuntime({ modelBaseUrl, wasmPaths, threads: 1 });
}

/**
 * Writes each finished alpha into its frame's buffer, takes the old background's colour out of
 * its soft edges where the model's renders do on the server, and sends the frame back
 * (transferred).
 */
/**
 * Whether the model's cut-outs carry the estimated edge colour (engine/api-models.ts `edgeColour`).
 */
let edgeColour = true;

function deliver(alphas: Uint8Array[], t0: number): void {
  for (const alpha of alphas) {
    const f = inFlight.shift();
    if (!f || !matter) return;
    const rgba = new Uint8Array(f.rgba);
    for (let i = 0, p = 3; i < alpha.length; i++, p += 4) rgba[p] = alpha[i]!;
    if (edgeColour)
      estimateForeground({ data: rgba, width: f.width, height: f.height, layout: 'rgba' });
    busyMs += performance.now() - t0;
    t0 = performance.now();
    post(
      {
        type: 'matted',
        id: f.id,
        width: f.width,
        height: f.height,
        rgba: f.rgba,
        busyMs,
        stats: structuredClone(matter.stats),
      },
      [f.rgba],
    );
  }
}

function failInFlight(message: string): void {
  for (const f of inFlight) post({ type: 'error', id: f.id, phase: 'frame', message });
  inFlight = [];
}

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.type) {
    case 'init': {
      const t0 = performance.now();
      try {
        const runtime = await runtimeFor(msg.backend, msg.modelBaseUrl, msg.wasmPaths);
        // People: RVM where this device runs it fast enough, else the selfie model.
        const people =
          msg.model === 'service-human'
            ? await choosePeopleModel(runtime, msg.frame, msg.people)
            : null;
        const { tier, manifest } = people
          ? withManifest(PEOPLE_TIERS[people.people])
          : tierFor(msg.model);
        await matter?.release();
        edgeColour = apiModel(msg.model).edgeColour;
        matter = await createVideoMatter({
          runtime,
          manifest,
          tier,
          threshold: null,
          smartSampling: true,
        });
        inFlight = [];
        busyMs = 0;
        post({
          type: 'ready',
          backend: msg.backend,
          runtime: runtime.name,
          loadMs: performance.now() - t0,
          latency: matter.latency,
          workSize: workSize(tier, msg.frame.width, msg.frame.height),
          modelName: people ? PEOPLE_TITLES[people.people] : manifest.id,
          modelReason: people?.reason ?? '',
        });
      } catch (err) {
        post({
          type: 'error',
          id: null,
          phase: 'init',
          message: (err as Error).message || String(err),
        });
      }
      return;
    }
    case 'frame': {
      if (!matter)
        return post({
          type: 'error',
          id: msg.id,
          phase: 'frame',
          message: 'The engine is not loaded',
        });
      const t0 = performance.now();
      inFlight.push({ id: msg.id, width: msg.width, height: msg.height, rgba: msg.rgba });
      try {
        const work = msg.work && {
          data: new Uint8Array(msg.work.rgba),
          width: msg.work.width,
          height: msg.work.height,
        };
        deliver(
          await matter.push(
            { data: new Uint8Array(msg.rgba), width: msg.width, height: msg.height },
            work ?? undefined,
          ),
          t0,
        );
      } catch (err) {
        failInFlight((err as Error).message || String(err));
      }
      return;
    }
    case 'flush': {
      if (!matter) return;
      try {
        deliver(await matter.flush(), performance.now());
      } catch (err) {
        failInFlight((err as Error).message || String(err));
      }
      return;
    }
    case 'reset':
      matter?.reset();
      failInFlight('Reset before the frame was finished');
      return;
    case 'dispose':
      await matter?.release();
      matter = null;
      self.close();
      return;
  }
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  queue = queue.then(() => handle(e.data));
};
