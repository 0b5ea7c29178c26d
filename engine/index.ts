/**
 * Keyout segmentation engine — pure TypeScript shared by the browser studio and the server.
 * Imports nothing from Node, Next, React, Prisma or onnxruntime (lint-enforced); the inference
 * library is injected as an `InferenceRuntime`.
 *
 * Frame-level API (what a Web Worker uses):
 *
 *   import { createVideoMatter, tierFor } from '@/engine';
 *   import { createOrtWebRuntime } from '@/workers/browser/ort-web-runtime';
 *
 *   const runtime = createOrtWebRuntime({ modelBaseUrl: '/models/', wasmPaths: '/vendor/ort/' });
 *   const { tier, manifest } = tierFor('service-human');        // or any ApiModel
 *   const matter = await createVideoMatter({ runtime, manifest, tier, threshold: null,
 *   smartSampling: true }); for each decoded frame, in display order:
 *     for (const alpha of await matter.push({ data: rgba, width, height })) use(alpha); // w*h
 *     bytes, 255 = subject
 *   for (const alpha of await matter.flush()) use(alpha);   // the frames still held back
 *   matter.reset();      // between videos or after a seek (drops held frames and state)
 *   await matter.release();
 *
 * - `threshold`: null (default) = soft alpha; a number in 0..1 (or 1..255 as a byte) = hard alpha.
 * - Alphas come out in order, up to `matter.latency` frames after their frame went in: a frame's
 *   matte is fused from keyframes before and after it (engine/matte/fusion.ts).
 * - `smartSampling` (default true): the model runs on the tier's keyframes and the frames
 *   between are carried along optical flow; false = run the model on every frame.
 * - `matter.stats`: frames done, inferences, seconds in "infer" and "refine".
 * - `API_MODEL_ROWS` lists the API models (`service-light`, `service-human`, `service-original`,
 *   `service-pro`), each naming its `TierConfig` in `TIERS`; `BUILTIN_MODELS` lists the manifests;
 *   the file a manifest names is served to the browser at `/models/<manifest.file>`.
 *
 * The server wraps the same matter in lib/segment/mask-video.ts (ffmpeg decode → matter →
 * FFV1 mask) with lib/inference/ort-node-runtime.ts.
 */
export { createVideoMatter, normalizeThreshold, workSize } from './video-matter';
export type { VideoMatter, VideoMatterOptions, MatterStats } from './video-matter';
export type { InferenceRuntime, InferenceSession, TensorData } from './runtime';
export type { ModelManifest, ModelSource, OutputDecoding } from './models/manifest';
export * from './models/catalog';
export { tierFor, withManifest } from './models/registry';
export { TIERS, PEOPLE_TIERS } from './tiers';
export type { TierConfig, PeopleModel } from './tiers';
export {
  API_MODEL_ROWS,
  API_MODELS,
  DEFAULT_MODEL,
  apiModel,
  isApiModel,
  resolveApiModel,
} from './api-models';
export type { ApiModel, ApiModelRow } from './api-models';
export type { RgbaFrame, FloatMap } from './matte/image';
