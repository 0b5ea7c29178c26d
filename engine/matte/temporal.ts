import type { FloatMap } from './image';
import { propagate } from './motion';

export interface TemporalOptions {
  /** 0..1: how much of the (motion-compensated) previous matte a pixel keeps when both agree. */
  strength: number;
  /** Disagreement (0..1) between the new and the carried matte at which the past is dropped. */
  tolerance: number;
}

/**
 * Recursive smoothing along the motion: the previous matte is first carried onto the current
 * frame (block-matched flow), then blended in only where it agrees with the new one. Shimmer
 * (small disagreements) is averaged away; real changes (a new limb, a cut) pass at once, and a
 * moving subject leaves no ghost because the past moves with it.
 */
export class TemporalStabilizer {
  private prev: FloatMap | null = null;
  private prevGuide: FloatMap | null = null;

  constructor(private readonly opts: TemporalOptions) {}

  reset(): void {
    this.prev = null;
    this.prevGuide = null;
  }

  apply(p: FloatMap, guide: FloatMap): FloatMap {
    let out = p;
    if (this.prev && this.prevGuide && this.prev.width === p.width && this.prev.height === p.height) {
      const carried = propagate(this.prev, this.prevGuide, guide).data;
      const data = new Float32Array(p.data.length);
      const { strength, tolerance } = this.opts;
      const inv = 1 / tolerance;
      for (let i = 0; i < data.length; i++) {
        const agree = Math.max(0, 1 - Math.abs(p.data[i]! - carried[i]!) * inv);
        const w = strength * agree;
        data[i] = w * carried[i]! + (1 - w) * p.data[i]!;
      }
      out = { data, width: p.width, height: p.height };
    }
    this.prev = out;
    this.prevGuide = guide;
    return out;
  }
}
