import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { OutputMetadata, ValidationProfile } from '../../../engine/media/output-metadata';
import type { RenderPlan } from '../../../engine/media/render-plan';
import { animation } from './animation';
import { bundleColorAlpha } from './bundle';
import { Check, type Facts } from './check';
import { lottieAlpha } from './lottie';
import { imageSequenceAlpha } from './sequence';
import { videoAlpha, videoAlphaLayer, videoMatte, videoOpaque, videoStackedAlpha } from './video';

export { planeStats, sampleIndices } from './planes';

/** The checks behind each validation profile a format names (engine/formats). */
const PROFILES: Record<ValidationProfile, (c: Check) => Promise<Facts>> = {
  'video-alpha': videoAlpha,
  'video-alpha-layer': videoAlphaLayer,
  'video-stacked-alpha': videoStackedAlpha,
  'video-matte': videoMatte,
  'video-opaque': videoOpaque,
  'bundle-color-alpha': bundleColorAlpha,
  'image-sequence-alpha': imageSequenceAlpha,
  'animation-alpha': animation,
  'animation-binary-alpha': animation,
  'lottie-alpha': lottieAlpha,
};

/**
 * Checks a rendered file against what its plan promised before anything serves it: codec,
 * size, frame rate, frame count and duration (within one frame), audio, and — decoding a few
 * frames with a decoder that really reads alpha — that the alpha or matte is there, not
 * constant, and the right way round. Returns the served metadata; throws MediaError otherwise.
 */
export async function validateOutput(o: {
  file: string;
  plan: RenderPlan;
  mask: string;
  signal?: AbortSignal;
}): Promise<OutputMetadata> {
  const promise = o.plan.promise;
  const facts = await PROFILES[promise.profile](new Check(o.file, o.plan, o.mask, o.signal));
  const stat = await fs.stat(o.file);
  return {
    validated: true,
    format: promise.codec,
    profile: promise.profile,
    container: promise.container,
    ...facts,
    alpha: promise.alpha,
    has_alpha: promise.alpha !== 'none',
    alpha_inverted: promise.inverted,
    bytes: stat.size,
    sha256: await sha256(o.file),
  };
}

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
