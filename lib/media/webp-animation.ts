import fs from 'node:fs/promises';
import { asAnimatedWebp } from '../../engine/media/containers';
import type { OutputPromise } from '../../engine/media/output-metadata';

/**
 * An animated WebP as promised, whatever libwebp made of a clip with no motion (an image-to-video
 * still with no camera move): a still image is wrapped back into a one-frame animation lasting
 * the promised duration, and a canvas left transparent around an opaque frame gets its alpha
 * flag (engine/media/containers.ts `asAnimatedWebp`). Other files are left alone.
 */
export async function keepWebpAnimated(file: string, promise: OutputPromise): Promise<void> {
  if (promise.codec !== 'webp') return;
  const animated = asAnimatedWebp(
    new Uint8Array(await fs.readFile(file)),
    Math.round(promise.duration * 1000),
  );
  if (animated) await fs.writeFile(file, animated);
}
