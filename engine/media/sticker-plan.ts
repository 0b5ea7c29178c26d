import type { OutputFormat } from '../formats';
import type { AttemptEncode, StickerPolicy, StickerQuality } from '../formats/sticker-policy';
import { parseRational, stickerRate, type OutputGeometry } from './geometry';
import type { OutputPromise } from './output-metadata';
import type { FfmpegRunner } from './render-input';

/**
 * The adaptive sticker encoder's plan, pure so the server (lib/media/sticker.ts) and the browser
 * run the same sequence. Each policy has a bounded ladder, tried in this order until one file
 * fits the byte budget (the first that fits wins):
 *   1. every quality step, at the start frame rate and full size;
 *   2. at the quality floor, every frame rate in the policy's steps below the start rate
 *      (never below 12 fps).
 * The picture stays at the canvas size throughout. Nothing fits: the export fails and says how
 * far the smallest attempt missed.
 */

export interface StickerAttempt {
  quality: StickerQuality;
  fps: number;
  fpsRational: string;
}

/** One attempt as the executor runs it: its ffmpeg steps, and what its file promises. */
export interface PlannedAttempt extends AttemptEncode {
  attempt: StickerAttempt;
  /** Its private folder (raw frames, palette); the executor creates and removes it. */
  workDir: string;
  promise: OutputPromise;
  geometry: OutputGeometry;
}

export interface StickerPlan {
  /** The master the format's branch writes (the canvas at the start rate). */
  master: string;
  output: string;
  budgetBytes: number;
  attempts: PlannedAttempt[];
}

/** The ladder for a policy, from the master's (start) frame rate. */
export function stickerAttempts(
  policy: Pick<StickerPolicy, 'quality' | 'fpsSteps' | 'codec'>,
  startFps: number,
): StickerAttempt[] {
  const rate = (fps: number) => stickerRate(fps, policy.codec.gifRates);
  const start = { fps: startFps, fpsRational: rate(startFps) };
  const floor = policy.quality[policy.quality.length - 1]!;
  const attempts: StickerAttempt[] = policy.quality.map((quality) => ({ quality, ...start }));
  let last = start;
  for (const fps of policy.fpsSteps) {
    const r = { fps: parseRational(rate(fps)), fpsRational: rate(fps) };
    if (r.fps >= last.fps - 1e-6) continue;
    attempts.push({ quality: floor, ...r });
    last = r;
  }
  return attempts;
}

/** "crf 40, 20 fps" */
export function describeAttempt(
  policy: Pick<StickerPolicy, 'codec'>,
  a: Pick<StickerAttempt, 'quality' | 'fps'>,
): string {
  return `${policy.codec.describe(a.quality)}, ${Math.round(a.fps * 100) / 100} fps`;
}

export interface StickerPlanInput {
  format: OutputFormat;
  /**
   * Whose ffmpeg runs the attempts: the server's, or ffmpeg.wasm in the studio (which lacks
   * libvpx's encoder).
   */
  runner: FfmpegRunner;
  /** The master's geometry (start rate, frames, loop length). */
  geometry: OutputGeometry;
  promise: OutputPromise;
  master: string;
  /** ffmpeg input arguments of the master. */
  masterInput: string[];
  output: string;
  workDir: string;
  outputArgs: string[];
}

/** Every attempt of a sticker, planned: its arguments and its promise (rate, frames, duration). */
export function planSticker(p: StickerPlanInput): StickerPlan {
  const policy = p.format.sticker;
  const fit = p.geometry.sticker;
  if (!policy || !fit) throw new Error(`${p.format.id} is not a sticker format`);
  const attempts = stickerAttempts(policy, p.geometry.fps).map((attempt, i): PlannedAttempt => {
    const frames = Math.max(1, Math.floor(fit.loopSeconds * attempt.fps + 1e-6));
    const geometry: OutputGeometry = {
      ...p.geometry,
      fps: attempt.fps,
      fpsRational: attempt.fpsRational,
      frames,
      duration: frames / attempt.fps,
    };
    const workDir = `${p.workDir}/attempt-${i + 1}`;
    const encode = (
      p.runner === 'wasm'
        ? (policy.codec.encodeInBrowser ?? policy.codec.encode)
        : policy.codec.encode
    )(attempt.quality, {
      input: p.masterInput,
      output: p.output,
      workDir,
      width: p.geometry.width,
      height: p.geometry.height,
      frames,
      fpsRational: attempt.fpsRational,
      outputArgs: p.outputArgs,
      budgetBytes: policy.budgetBytes,
    });
    return {
      ...encode,
      attempt,
      workDir,
      geometry,
      promise: { ...p.promise, fps: attempt.fps, frames, duration: geometry.duration },
    };
  });
  return { master: p.master, output: p.output, budgetBytes: policy.budgetBytes, attempts };
}

/** One attempt's outcome, as metadata records it. */
export interface AttemptResult {
  quality: StickerQuality;
  fps: number;
  bytes: number;
  fits: boolean;
}

export const attemptResult = (a: StickerAttempt, bytes: number, budget: number): AttemptResult => ({
  quality: a.quality,
  fps: Math.round(a.fps * 1000) / 1000,
  bytes,
  fits: bytes <= budget,
});

/** Why a sticker failed: its budget, and how far the smallest attempt missed it. */
export function budgetMissMessage(format: OutputFormat, results: AttemptResult[]): string {
  const policy = format.sticker!;
  const best = results.reduce((a, b) => (b.bytes < a.bytes ? b : a));
  const over = best.bytes - policy.budgetBytes;
  return (
    `${format.id} could not fit its budget of ` +
    `${policy.budgetBytes.toLocaleString('en-US')} bytes (90 % of ` +
    `${policy.platform}'s ${policy.limitLabel}) ` +
    (`within its quality floors: the smallest of ${results.length} ` +
      `attempts (${describeAttempt(policy, best)}) `) +
    (`made ${best.bytes.toLocaleString('en-US')} bytes, ` +
      `${over.toLocaleString('en-US')} bytes ` +
      `(${((over / policy.budgetBytes) * 100).toFixed(1)} %) over. `) +
    'Crop to the subject, use a shorter clip, or pick a platform with a larger limit.'
  );
}

export class StickerBudgetError extends Error {
  override name = 'StickerBudgetError';
}

/**
 * The adaptive encoder: the attempts in order, each run by `run` (which makes the file and
 * returns its bytes), until one fits the budget (first fit wins; `discard` removes a file that
 * did not). Nothing fits: StickerBudgetError, saying by how much the smallest attempt missed.
 * The server runs attempts with native ffmpeg, the studio with ffmpeg.wasm; both come here.
 */
export async function fitSticker(
  format: OutputFormat,
  sticker: StickerPlan,
  run: (a: PlannedAttempt) => Promise<number>,
  discard: () => Promise<void>,
): Promise<{ winner: PlannedAttempt; attempts: AttemptResult[] }> {
  const attempts: AttemptResult[] = [];
  for (const a of sticker.attempts) {
    const bytes = await run(a);
    attempts.push(attemptResult(a.attempt, bytes, sticker.budgetBytes));
    if (bytes <= sticker.budgetBytes) return { winner: a, attempts };
    await discard();
  }
  throw new StickerBudgetError(budgetMissMessage(format, attempts));
}
