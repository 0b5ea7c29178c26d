import type { OutputFormat } from '../../../engine/formats';
import { STICKER_MAX_FPS, STICKER_MIN_FPS } from '../../../engine/formats';
import type { OutputMetadata } from '../../../engine/media/output-metadata';
import type { RenderPlan } from '../../../engine/media/render-plan';
import type { AttemptResult } from '../../../engine/media/sticker-plan';
import { fail } from './check';

/**
 * A sticker's own rules, checked on the validated facts of its file (its container and alpha
 * were checked by the codec's profile): the exact canvas, the byte budget, the loop within the
 * cap, 12–30 fps, no audio. Returns the served metadata: `profile` names the sticker policy and
 * its version (the format id), and `sticker` what the adaptive encoder did.
 */
export function stickerMetadata(
  format: OutputFormat,
  plan: RenderPlan,
  m: OutputMetadata,
  attempts: AttemptResult[],
  sourceSeconds: number,
): OutputMetadata {
  const policy = format.sticker!;
  const { width, height } = policy.canvas;
  if (m.width !== width || m.height !== height)
    fail(`the sticker is ${m.width}x${m.height}, expected the ${width}x${height} canvas.`);
  if (m.bytes > policy.budgetBytes)
    fail(`the sticker has ${m.bytes} bytes, over its budget of ${policy.budgetBytes}.`);
  if (m.duration_seconds > policy.maxSeconds + 0.0005)
    fail(`the sticker lasts ${m.duration_seconds} s, over the ${policy.maxSeconds} s cap.`);
  const fps = plan.geometry.fps;
  if (fps < STICKER_MIN_FPS - 1e-6 || fps > STICKER_MAX_FPS + 1e-6)
    fail(`the sticker runs at ${fps} fps, outside ${STICKER_MIN_FPS}–${STICKER_MAX_FPS}.`);
  if (m.has_audio) fail('the sticker has an audio stream.');
  const speed = plan.geometry.sticker?.speed ?? 1;
  return {
    ...m,
    profile: format.id,
    sticker: {
      policy: policy.policy,
      version: policy.version,
      platform: policy.platform,
      canvas: policy.canvas,
      limit_bytes: policy.limitBytes,
      budget_bytes: policy.budgetBytes,
      max_seconds: policy.maxSeconds,
      source_seconds: Math.round(sourceSeconds * 1000) / 1000,
      speed_up: Math.round((1 / speed) * 1000) / 1000,
      final_fps: Math.round(fps * 1000) / 1000,
      attempts: attempts.map((a) => ({ ...a, quality: { ...a.quality } })),
    },
  };
}
