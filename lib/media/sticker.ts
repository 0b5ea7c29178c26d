import fs from 'node:fs/promises';
import type { FramesJob } from '../../engine/formats';
import { quantizedApng } from '../../engine/media/apng-palette';
import type { RenderPlan } from '../../engine/media/render-plan';
import {
  fitSticker,
  StickerBudgetError,
  type AttemptResult,
  type PlannedAttempt,
  type StickerPlan,
} from '../../engine/media/sticker-plan';
import { MediaError } from './ffmpeg';
import { runEncode } from './run-ffmpeg';
import { keepWebpAnimated } from './webp-animation';

export interface EncodedSticker {
  /** The render plan as the winning attempt made the file (its rate, frames and duration). */
  plan: RenderPlan;
  attempts: AttemptResult[];
}

async function runFramesJob(job: FramesJob): Promise<void> {
  // The server's ffmpeg has libvpx: only the APNG palette runs in JavaScript here.
  if (job.encode.kind !== 'apng-palette')
    throw new Error(`${job.encode.kind} runs in the browser only`);
  await fs.writeFile(
    job.output,
    quantizedApng(await fs.readFile(job.rawFrames), { ...job, colours: job.encode.colours }),
  );
}

async function runAttempt(
  a: PlannedAttempt,
  output: string,
  label: string,
  signal?: AbortSignal,
): Promise<number> {
  await fs.mkdir(a.workDir, { recursive: true });
  try {
    for (const args of a.steps) await runEncode(args, { what: `the ${label} sticker`, signal });
    if (a.frames) await runFramesJob(a.frames);
    await keepWebpAnimated(output, a.promise);
  } finally {
    await fs.rm(a.workDir, { recursive: true, force: true });
  }
  return (await fs.stat(output)).size;
}

/**
 * The adaptive encoder (engine/media/sticker-plan.ts `fitSticker`) with native ffmpeg: each
 * attempt from the master the render's branch wrote, until one file fits the budget.
 */
export async function encodeSticker(
  plan: RenderPlan,
  sticker: StickerPlan,
  signal?: AbortSignal,
): Promise<EncodedSticker> {
  try {
    const { winner, attempts } = await fitSticker(
      plan.format,
      sticker,
      (a) => runAttempt(a, sticker.output, plan.format.id, signal),
      () => fs.rm(sticker.output, { force: true }),
    );
    return { plan: { ...plan, promise: winner.promise, geometry: winner.geometry }, attempts };
  } catch (e) {
    throw e instanceof StickerBudgetError ? new MediaError(e.message) : e;
  } finally {
    await fs.rm(sticker.master, { force: true });
  }
}
