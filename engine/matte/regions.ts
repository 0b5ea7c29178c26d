import type { Box } from '../prompts/detector';
import type { FloatMap } from './image';

/** One 8-connected region of a map at or above a cut. */
export interface Region {
  /** Its label in `labels` (1-based). */
  id: number;
  /** Pixels in it. */
  size: number;
  /** Sum of the map over it. */
  sum: number;
  box: Box;
}

export interface Regions {
  width: number;
  height: number;
  /** Per pixel: the region's id, 0 below the cut. */
  labels: Int32Array;
  regions: Region[];
}

/** Labels the 8-connected regions of `p` at or above `cut` (flood fill with an explicit stack). */
export function labelRegions(p: FloatMap, cut = 0.5): Regions {
  const { width: w, height: h, data } = p;
  const labels = new Int32Array(w * h);
  const regions: Region[] = [];
  // A pixel is pushed once, so w * h entries suffice.
  const stack = new Int32Array(w * h);
  for (let i = 0; i < data.length; i++) {
    if (data[i]! < cut || labels[i]) continue;
    const r: Region = { id: regions.length + 1, size: 0, sum: 0, box: [0, 0, 0, 0] };
    let [x0, y0, x1, y1] = [w, h, 0, 0];
    let top = 0;
    labels[i] = r.id;
    stack[top++] = i;
    while (top) {
      const k = stack[--top]!;
      r.size++;
      r.sum += data[k]!;
      const y = (k / w) | 0;
      const x = k - y * w;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      if (y >= y1) y1 = y + 1;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
        for (
          let j = yy * w + Math.max(0, x - 1), e = yy * w + Math.min(w - 1, x + 1);
          j <= e;
          j++
        ) {
          if (!labels[j] && data[j]! >= cut) {
            labels[j] = r.id;
            stack[top++] = j;
          }
        }
      }
    }
    r.box = [x0, y0, x1, y1];
    regions.push(r);
  }
  return { width: w, height: h, labels, regions };
}
