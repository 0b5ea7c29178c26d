import { resizeMap, type FloatMap } from './image';

const THUMB = 32;

/**
 * Scene cuts: a frame whose 32-pixel thumbnail differs from the previous frame's by more than
 * `threshold` (mean absolute luma, 0..1) starts a new shot. Mattes are never carried across one.
 */
export class CutDetector {
  private last: Float32Array | null = null;

  constructor(private readonly threshold: number) {}

  reset(): void {
    this.last = null;
  }

  /** True when `luma` (any resolution) starts a new shot; the first frame does not. */
  isCut(luma: FloatMap): boolean {
    const thumb = resizeMap(
      luma,
      THUMB,
      Math.max(1, Math.round((THUMB * luma.height) / luma.width)),
    ).data;
    const prev = this.last;
    this.last = thumb;
    if (!prev || prev.length !== thumb.length) return prev !== null;
    let d = 0;
    for (let i = 0; i < thumb.length; i++) d += Math.abs(thumb[i]! - prev[i]!);
    return d / thumb.length > this.threshold;
  }
}
