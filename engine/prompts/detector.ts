import { resizeMap, type FloatMap } from '../matte/image';
import type { InferenceSession, TensorData } from '../runtime';

/**
 * The COCO CenterNet detector's I/O (engine/prompts/models.ts CENTERNET, converted to NCHW at
 * prepare time): a 512×512 RGB picture in 0..255, squashed to the square; out come per-class
 * centre heatmaps and, per cell, the distances from the centre to the box's four sides, on a
 * 128×128 grid (stride 4). The graph's own decoding is redone here: peaks of a 3×3 neighbourhood,
 * best first, then per-class non-maximum suppression.
 */
export const DETECTOR_SIDE = 512;
const STRIDE = 4;
export const DETECTOR_IO = { input: 'images', heatmap: 'keypoints', sides: 'wh' } as const;

/** A box in some pixel space: left, top, right, bottom. */
export type Box = readonly [number, number, number, number];

export interface Detection {
  classIndex: number;
  score: number;
  box: Box;
}

/** R, G, B planes (0..255) of any size → the detector's input tensor. */
export function detectorInput(planes: Float32Array[], width: number, height: number): TensorData {
  const n = DETECTOR_SIDE * DETECTOR_SIDE;
  const data = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++)
    data.set(
      resizeMap({ data: planes[c]!, width, height }, DETECTOR_SIDE, DETECTOR_SIDE).data,
      c * n,
    );
  return { data, dims: [1, 3, DETECTOR_SIDE, DETECTOR_SIDE] };
}

/** The detector's heatmap and box sides on a picture (R, G, B planes, 0..255, any size). */
export async function runDetector(
  detector: InferenceSession,
  planes: Float32Array[],
  width: number,
  height: number,
): Promise<{ heatmap: TensorData; sides: TensorData }> {
  const out = await detector.run({ [DETECTOR_IO.input]: detectorInput(planes, width, height) }, [
    DETECTOR_IO.heatmap,
    DETECTOR_IO.sides,
  ]);
  return { heatmap: out[DETECTOR_IO.heatmap]!, sides: out[DETECTOR_IO.sides]! };
}

export function boxIou(a: Box, b: Box): number {
  const iw = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const ih = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = iw * ih;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Detections of the wanted classes scoring at least `minScore`, in the picture's own pixels
 * (`width` × `height`), best first, with boxes of one class overlapping a better one by more
 * than `nmsIou` dropped.
 */
export function decodeDetections(
  heatmap: TensorData,
  sides: TensorData,
  opts: {
    classes: ReadonlySet<number>;
    minScore: number;
    nmsIou: number;
    width: number;
    height: number;
  },
): Detection[] {
  const [, C, H, W] = heatmap.dims as [number, number, number, number];
  const hm = heatmap.data;
  const wh = sides.data;
  const n = H * W;
  const sx = opts.width / DETECTOR_SIDE;
  const sy = opts.height / DETECTOR_SIDE;
  const found: Detection[] = [];
  for (const c of opts.classes) {
    if (c < 0 || c >= C) continue;
    const plane = c * n;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const v = hm[plane + y * W + x]!;
        if (v < opts.minScore || !isPeak(hm, plane, W, H, x, y, v)) continue;
        const p = y * W + x;
        const box: Box = [
          Math.max(0, (STRIDE * x - wh[p]!) * sx),
          Math.max(0, (STRIDE * y - wh[n + p]!) * sy),
          Math.min(opts.width, (STRIDE * x + wh[2 * n + p]!) * sx),
          Math.min(opts.height, (STRIDE * y + wh[3 * n + p]!) * sy),
        ];
        if (box[2] > box[0] && box[3] > box[1]) found.push({ classIndex: c, score: v, box });
      }
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  for (const d of found)
    if (!kept.some((k) => k.classIndex === d.classIndex && boxIou(k.box, d.box) > opts.nmsIou))
      kept.push(d);
  return kept;
}

function isPeak(
  hm: Float32Array,
  plane: number,
  W: number,
  H: number,
  x: number,
  y: number,
  v: number,
): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= H) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= W || (dx === 0 && dy === 0)) continue;
      const u = hm[plane + yy * W + xx]!;
      // Ties go to the first cell in scan order, so a flat plateau gives one peak.
      if (u > v || (u === v && (dy < 0 || (dy === 0 && dx < 0)))) return false;
    }
  }
  return true;
}

/** The box around a map's pixels at or above `cut`, or null when there are none. */
export function boxOf(
  map: Pick<FloatMap, 'width' | 'height'> & { data: ArrayLike<number> },
  cut = 0.5,
): Box | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      if (map.data[y * map.width + x]! < cut) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : [x0, y0, x1 + 1, y1 + 1];
}
