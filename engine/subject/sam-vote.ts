import type { FloatMap } from '../matte/image';
import type { Box } from '../prompts/detector';

/**
 * SAM's vote on the segmentation model's answer inside the subject's zone (a grid box, scaled
 * to the answer by `scale`). Where the two fall on opposite sides of 0.5, the mean of their
 * probabilities decides, and the pixel takes the value of the one it sided with: a part only
 * SAM found comes out as opaque as SAM was sure, not half transparent. Where they agree, the
 * model's own edges stay. Given the ground truth's box on every 10th frame, this mean scored
 * J 0.838 on fold 1 against 0.816 for ISNet and 0.797 for SAM alone (0.851 / 0.831 / 0.814 on
 * fold 2, held out).
 */
export function samVote(
  data: Float32Array,
  w: number,
  h: number,
  sam: FloatMap,
  zone: Box,
  scale: number,
): void {
  const [x0, y0, x1, y1] = zone.map((v) => Math.round(v * scale)) as [number, number, number, number];
  for (let y = Math.max(0, y0); y < Math.min(h, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(w, x1); x++) {
      const i = y * w + x;
      const p = data[i]!;
      const q = sam.data[i]!;
      if (p >= 0.5 === q >= 0.5) continue;
      data[i] = p + q >= 1 ? Math.max(p, q) : Math.min(p, q);
    }
  }
}
