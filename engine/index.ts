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
 *   const matter = await createVideoMatter({ runtime, manifest, tier, threshold: null, smartSampling: true });
 *   for each decoded frame, in display order:
 *     const alpha = await matter.process({ data: rgba, width, height }); // Uint8Array, w*h, 255 = subject
 *   matter.reset();      // between videos or after a seek (drops temporal state)
 *   await matter.release();
 *
 * - `threshold`: null (default) = soft alpha; a number in 0..1 (or 1..255 as a byte) = hard alpha.
 * - `smartSampling` (default true): frames that barely changed reuse the last inference, up to
 *   the tier's keyframe interval; false = run the model on every frame.
 * - `matter.stats`: frames done, inferences, seconds in "infer" and "refine".
 * - `TIERS` maps each API model (`service-light`, `service-human`, `service-original`,
 *   `service-pro`) to a `TierConfig`; `BUILTIN_MODELS` lists the manifests; the file a manifest
 *   names is served to the browser at `/models/<manifest.file>`.
 *
 * The server wraps the same matter in lib/segment/segment-video.ts (ffmpeg decode → matter →
 * FFV1 mask) with workers/server/ort-node-runtime.ts.
 */
export { createVideoMatter, normalizeThreshold } from './video-matter';
export type { VideoMatter, VideoMatterOptions, MatterStats } from './video-matter';
export type { InferenceRuntime, InferenceSession, TensorData } from './runtime';
export type { ModelManifest, ModelSource, OutputDecoding } from './models/manifest';
export { BUILTIN_MODELS, ISNET, SELFIE, SINET, PAN_PARTS, MEDIAPIPE_LANDSCAPE } from './models/catalog';
export { tierFor } from './models/registry';
export { TIERS, API_MODELS, isApiModel } from './tiers';
export type { ApiModel, TierConfig } from './tiers';
export type { RgbaFrame, FloatMap } from './matte/image';
