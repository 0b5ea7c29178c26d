import fs from 'node:fs/promises';
import path from 'node:path';
import type { LottiePlan } from '../../engine/formats';
import { imageLayers, lottieAsset, lottieHead } from '../../engine/media/lottie';
import { MediaError } from './ffmpeg';

/** The frame indices the steps wrote images for (`frame_000012.webp` → 12), in order. */
export async function embeddedFrames(plan: LottiePlan): Promise<number[]> {
  const names = await fs.readdir(plan.directory);
  return names
    .map((n) => /^frame_(\d+)\.(webp|png)$/.exec(n))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/**
 * Writes the Lottie JSON: the head, each frame's image as an embedded asset (read one at a
 * time), then the layers that show them.
 */
export async function writeLottie(file: string, plan: LottiePlan): Promise<void> {
  const frames = (await embeddedFrames(plan)).filter((f) => f < plan.frames);
  if (frames[0] !== 0)
    throw new MediaError('The Lottie could not be made: no first frame was rendered.');
  const out = await fs.open(file, 'w');
  try {
    await out.write(`${lottieHead(plan)},"assets":[`);
    for (const [i, frame] of frames.entries()) {
      const data = await fs.readFile(
        path.join(plan.directory, `frame_${String(frame).padStart(6, '0')}.${plan.image}`),
      );
      await out.write(
        (i ? ',' : '') + JSON.stringify(lottieAsset(frame, plan, data.toString('base64'))),
      );
    }
    await out.write(`],"layers":${JSON.stringify(imageLayers(frames, plan.frames))},"markers":[]}`);
  } finally {
    await out.close();
  }
}
