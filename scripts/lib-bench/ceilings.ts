import { cropResize, resizeMap, type FloatMap } from '../../engine/matte/image';
import { ISNET } from '../../engine/models/catalog';
import { decodeOutput, modelInputSize, toInputTensor } from '../../engine/models/io';
import type { Box } from '../../engine/prompts/detector';
import { SAM_DECODER, SAM_ENCODER } from '../../engine/prompts/models';
import { SAM_IO, samDecoderFeeds, samEncoderInput, samMask } from '../../engine/prompts/sam';
import type { InferenceRuntime } from '../../engine/runtime';
import { ffmpeg } from '../../lib/media/ffmpeg';
import { boundaryF, iou } from './metrics';

/**
 * What the engine's two segmenters do when they are given the right subject: the ground truth's
 * box on each scored frame. `ceiling-isnet-box` runs ISNet on the box (grown by CONTEXT on every
 * side, at ISNet's 1024 side) and keeps its answer inside that crop; `ceiling-sam-box` gives SAM
 * the box itself. A tier's loss on a clip then splits into choice (the better ceiling minus the
 * tier) and segmentation (1 minus that ceiling). Frames whose ground truth is empty count as the
 * empty answer both ways, so a ceiling never gains or loses on them.
 */
export const CEILINGS = ['ceiling-isnet-box', 'ceiling-sam-box'] as const;
export type CeilingName = (typeof CEILINGS)[number];
const CONTEXT = 0.1;
const ISNET_SIDE = 1024;

export interface CeilingScore {
  config: CeilingName;
  /** Frames scored: every `every`th frame of the clip, from its first. */
  frames: number;
  J: number;
  F: number;
}

/** Both ceilings of one clip, on every `every`th frame of its ground truth. */
export async function ceilingScores(runtime: InferenceRuntime, video: string, gt: Uint8Array[], width: number, height: number, every: number): Promise<CeilingScore[]> {
  const [isnet, encoder, decoder] = await Promise.all([runtime.load(ISNET), runtime.load(SAM_ENCODER), runtime.load(SAM_DECODER)]);
  const sums = { isnet: { J: 0, F: 0 }, sam: { J: 0, F: 0 } };
  let frames = 0;
  for await (const { index, planes } of rgbFrames(video, width, height, every, gt.length)) {
    const truth = gt[index]!;
    const box = boxOfMask(truth, width, height);
    const answers = box
      ? {
          isnet: await isnetInBox(isnet, planes, width, height, box),
          sam: await samFromBox(encoder, decoder, planes, width, height, box),
        }
      : { isnet: new Uint8Array(truth.length), sam: new Uint8Array(truth.length) };
    for (const k of ['isnet', 'sam'] as const) {
      sums[k].J += iou(answers[k], truth);
      sums[k].F += boundaryF(answers[k], truth, width, height);
    }
    frames++;
  }
  const n = Math.max(1, frames);
  return [
    { config: 'ceiling-isnet-box', frames, J: sums.isnet.J / n, F: sums.isnet.F / n },
    { config: 'ceiling-sam-box', frames, J: sums.sam.J / n, F: sums.sam.F / n },
  ];
}

/** The tight box [x0, y0, x1, y1) around a mask's subject pixels, or null when it has none. */
export function boxOfMask(mask: Uint8Array, width: number, height: number): Box | null {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]! < 128) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : [x0, y0, x1 + 1, y1 + 1];
}

type Session = Awaited<ReturnType<InferenceRuntime['load']>>;

async function isnetInBox(isnet: Session, planes: Float32Array[], width: number, height: number, box: Box): Promise<Uint8Array> {
  const dx = (box[2] - box[0]) * CONTEXT;
  const dy = (box[3] - box[1]) * CONTEXT;
  const crop = [Math.max(0, Math.floor(box[0] - dx)), Math.max(0, Math.floor(box[1] - dy)), Math.min(width, Math.ceil(box[2] + dx)), Math.min(height, Math.ceil(box[3] + dy))] as const;
  const [iw, ih] = modelInputSize(ISNET, ISNET_SIDE, { width: crop[2] - crop[0], height: crop[3] - crop[1] }, false);
  const input = planes.map((p) => cropResize({ data: p, width, height }, crop, iw, ih).data);
  const out = await isnet.run({ [ISNET.input.name]: toInputTensor(input, iw, ih, ISNET) }, [ISNET.output.name]);
  const prob = resizeMap(decodeOutput(out[ISNET.output.name]!, ISNET), crop[2] - crop[0], crop[3] - crop[1]);
  const mask = new Uint8Array(width * height);
  for (let y = crop[1]; y < crop[3]; y++) {
    for (let x = crop[0]; x < crop[2]; x++) mask[y * width + x] = prob.data[(y - crop[1]) * prob.width + (x - crop[0])]! >= 0.5 ? 255 : 0;
  }
  return mask;
}

async function samFromBox(encoder: Session, decoder: Session, planes: Float32Array[], width: number, height: number, box: Box): Promise<Uint8Array> {
  const enc = await encoder.run({ [SAM_IO.encoderInput]: samEncoderInput(planes, width, height) }, [SAM_IO.embedding]);
  const res = await decoder.run({ image_embeddings: enc[SAM_IO.embedding]!, ...samDecoderFeeds({ box }, width, height) }, SAM_IO.decoderOutputs);
  return binary(samMask(res.low_res_masks!, width, height));
}

function binary(map: FloatMap): Uint8Array {
  const out = new Uint8Array(map.data.length);
  for (let i = 0; i < out.length; i++) out[i] = map.data[i]! >= 0.5 ? 255 : 0;
  return out;
}

/** Every `every`th frame of the video (up to `limit` frames in), as R, G, B planes (0..255). */
async function* rgbFrames(video: string, width: number, height: number, every: number, limit: number) {
  const { stdout } = await ffmpeg(['-v', 'error', '-i', video, '-vf', `select=not(mod(n\\,${every}))`, '-fps_mode', 'passthrough', '-frames:v', String(Math.ceil(limit / every)), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { timeoutMs: 600_000 });
  const n = width * height;
  for (let off = 0, k = 0; off + 3 * n <= stdout.length; off += 3 * n, k++) {
    const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
    for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) planes[c]![i] = stdout[off + 3 * i + c]!;
    yield { index: k * every, planes };
  }
}
