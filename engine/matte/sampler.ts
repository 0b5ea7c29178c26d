import type { FloatMap } from './image';
import { resizeMap } from './image';

export interface SamplingOptions {
  /** Most frames that may reuse one inference (1 = infer every frame). */
  maxInterval: number;
  /** Mean luma change (0..1) against the last inferred frame that forces a new inference. */
  changeThreshold: number;
}

const THUMB = 32;

/**
 * Smart sampling: decides whether a frame needs the model, by comparing a tiny thumbnail of it
 * with the last frame the model saw. Static shots reuse the matte; cuts and motion re-infer.
 */
export class KeyframeSampler {
  private last: Float32Array | null = null;
  private since = 0;

  constructor(private readonly opts: SamplingOptions) {}

  reset(): void {
    this.last = null;
    this.since = 0;
  }

  /** True when the model must run on this frame; `luma` is the frame at working resolution. */
  needsInference(luma: FloatMap): boolean {
    const thumb = resizeMap(luma, THUMB, Math.max(1, Math.round((THUMB * luma.height) / luma.width))).data;
    let infer = !this.last || this.last.length !== thumb.length || this.since + 1 >= this.opts.maxInterval;
    if (!infer && this.last) {
      let d = 0;
      for (let i = 0; i < thumb.length; i++) d += Math.abs(thumb[i]! - this.last[i]!);
      infer = d / thumb.length > this.opts.changeThreshold;
    }
    if (infer) {
      this.last = thumb;
      this.since = 0;
    } else this.since++;
    return infer;
  }
}
