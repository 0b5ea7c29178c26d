import type { FloatMap } from './image';

export interface TemporalOptions {
  /** 0..1: how much of the previous matte a perfectly still pixel keeps. */
  strength: number;
  /** Luma change (0..1) at which a pixel counts as moving and keeps none of the past. */
  motion: number;
}

/**
 * Per-pixel recursive smoothing gated by the frame itself: where the picture did not change,
 * the matte keeps most of its past (no flicker); where it changed, the past is dropped at once
 * (no ghost trailing a moving subject).
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
    const prev = this.prev;
    const pg = this.prevGuide;
    let out = p;
    if (prev && pg && prev.width === p.width && prev.height === p.height) {
      const data = new Float32Array(p.data.length);
      const { strength, motion } = this.opts;
      const inv = 1 / motion;
      for (let i = 0; i < data.length; i++) {
        const still = Math.max(0, 1 - Math.abs(guide.data[i]! - pg.data[i]!) * inv);
        const w = strength * still * still;
        data[i] = w * prev.data[i]! + (1 - w) * p.data[i]!;
      }
      out = { data, width: p.width, height: p.height };
    }
    this.prev = out;
    this.prevGuide = guide;
    return out;
  }
}
