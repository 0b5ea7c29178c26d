import fs from 'node:fs/promises';
import type { RenderPlan } from '../../engine/media/render-plan';
import { attemptResult, budgetMissMessage, type AttemptResult, type PlannedAttempt, type StickerPlan } from '../../engine/media/sticker-plan';
import { writeQuantizedApng } from './apng';
import { MediaError } from './ffmpeg';
import { runEncode } from './run-ffmpeg';

export interface EncodedSticker {
  /** The render plan as the winning attempt made the file (its rate, frames and duration). */
  plan: RenderPlan;
  attempts: AttemptResult[];
}

async function runAttempt(a: PlannedAttempt, output: string, label: string, signal?: AbortSignal): Promise<number> {
  await fs.mkdir(a.workDir, { recursive: true });
  try {
    for (const args of a.steps) await runEncode(args, { what: `the ${label} sticker`, signal });
    if (a.apng) await writeQuantizedApng(a.apng);
  } finally {
    await fs.rm(a.workDir, { recursive: true, force: true });
  }
  return (await fs.stat(output)).size;
}

/**
 * The adaptive encoder: the sticker's attempts (engine/media/sticker-plan.ts), in order, each
 * from the master the render's branch wrote, until one file fits the budget (first fit wins).
 * When none does the export fails, saying by how much the smallest attempt missed.
 */
export async function encodeSticker(plan: RenderPlan, sticker: StickerPlan, signal?: AbortSignal): Promise<EncodedSticker> {
  const results: AttemptResult[] = [];
  try {
    for (const a of sticker.attempts) {
      const bytes = await runAttempt(a, sticker.output, plan.format.id, signal);
      results.push(attemptResult(a.attempt, bytes, sticker.budgetBytes));
      if (bytes <= sticker.budgetBytes) return { plan: { ...plan, promise: a.promise, geometry: a.geometry }, attempts: results };
      await fs.rm(sticker.output, { force: true });
    }
  } finally {
    await fs.rm(sticker.master, { force: true });
  }
  throw new MediaError(budgetMissMessage(plan.format, results));
}
