import { cropResize, resampleRgb, resizeMap, type FloatMap } from '../../engine/matte/image';
import { ISNET } from '../../engine/models/catalog';
import { decodeOutput, modelInputSize, toInputTensor } from '../../engine/models/io';
import { boxOf, type Box } from '../../engine/prompts/detector';
import { SAM_DECODER, SAM_ENCODER } from '../../engine/prompts/models';
import { SAM_IO, samDecoderFeeds, samEmbedding, samMask } from '../../engine/prompts/sam';
import type { MediaInfo } from '../../engine/media/types';
import type { InferenceRuntime } from '../../engine/runtime';
import { readFrames } from '../../lib/segment/frame-reader';
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
/**
 * The naive baseline (ISNet at 1024² on the whole frame, thresholded) on the same sampled
 * frames. It is per frame by definition, so sampling it adds only sampling noise, and a
 * full-length held-out fold costs a fifth of the ISNet runs (bench:quality --sampled-baseline).
 */
export const SAMPLED_BASELINE = 'baseline-isnet-1024/sampled';
export type CeilingName = (typeof CEILINGS)[number] | typeof SAMPLED_BASELINE;
const CONTEXT = 0.1;
const ISNET_SIDE = 1024;

export interface CeilingScore {
  config: CeilingName;
  /** Frames scored: every `every`th frame of the clip, from its first. */
  frames: number;
  J: number;
  F: number;
}

/**
 * Both ceilings of one clip (and, with `baseline`, the naive baseline), on every `every`th frame of
 * its ground truth.
 */
export async function ceilingScores(
  runtime: InferenceRuntime,
  video: string,
  info: MediaInfo,
  gt: Uint8Array[],
  every: number,
  baseline = false,
): Promise<CeilingScore[]> {
  const { width, height } = info;
  const [isnet, encoder, decoder] = await Promise.all([
    runtime.load(ISNET),
    runtime.load(SAM_ENCODER),
    runtime.load(SAM_DECODER),
  ]);
  const sums = { isnet: { J: 0, F: 0 }, sam: { J: 0, F: 0 }, whole: { J: 0, F: 0 } };
  let frames = 0;
  let index = -1;
  for await (const frame of readFrames(info, video, { maxFrames: gt.length })) {
    if (++index % every !== 0) continue;
    const planes = resampleRgb(frame, width, height);
    const truth = gt[index]!;
    const box = boxOf({ data: truth, width, height }, 128);
    const answers = box
      ? {
          isnet: await isnetInBox(isnet, planes, width, height, box),
          sam: binary((await samFromBox(encoder, decoder, planes, width, height, box)).probability),
        }
      : { isnet: new Uint8Array(truth.length), sam: new Uint8Array(truth.length) };
    const scored = baseline
      ? { ...answers, whole: binary(await isnetWhole(isnet, planes, width, height)) }
      : answers;
    for (const [k, answer] of Object.entries(scored) as [keyof typeof sums, Uint8Array][]) {
      sums[k].J += iou(answer, truth);
      sums[k].F += boundaryF(answer, truth, width, height);
    }
    frames++;
  }
  const n = Math.max(1, frames);
  const rows: CeilingScore[] = [
    { config: 'ceiling-isnet-box', frames, J: sums.isnet.J / n, F: sums.isnet.F / n },
    { config: 'ceiling-sam-box', frames, J: sums.sam.J / n, F: sums.sam.F / n },
  ];
  return baseline
    ? [...rows, { config: SAMPLED_BASELINE, frames, J: sums.whole.J / n, F: sums.whole.F / n }]
    : rows;
}

/** ISNet's probability on the whole frame squeezed to 1024², as the naive baseline runs it. */
export async function isnetWhole(
  isnet: Session,
  planes: Float32Array[],
  width: number,
  height: number,
): Promise<FloatMap> {
  const input = planes.map(
    (p) => resizeMap({ data: p, width, height }, ISNET_SIDE, ISNET_SIDE).data,
  );
  const out = await isnet.run(
    { [ISNET.input.name]: toInputTensor(input, ISNET_SIDE, ISNET_SIDE, ISNET) },
    [ISNET.output.name],
  );
  return resizeMap(decodeOutput(out[ISNET.output.name]!, ISNET), width, height);
}

export type Session = Awaited<ReturnType<InferenceRuntime['load']>>;

async function isnetInBox(
  isnet: Session,
  planes: Float32Array[],
  width: number,
  height: number,
  box: Box,
): Promise<Uint8Array> {
  const dx = (box[2] - box[0]) * CONTEXT;
  const dy = (box[3] - box[1]) * CONTEXT;
  const crop = [
    Math.max(0, Math.floor(box[0] - dx)),
    Math.max(0, Math.floor(box[1] - dy)),
    Math.min(width, Math.ceil(box[2] + dx)),
    Math.min(height, Math.ceil(box[3] + dy)),
  ] as const;
  const [iw, ih] = modelInputSize(
    ISNET,
    ISNET_SIDE,
    { width: crop[2] - crop[0], height: crop[3] - crop[1] },
    false,
  );
  const input = planes.map((p) => cropResize({ data: p, width, height }, crop, iw, ih).data);
  const out = await isnet.run({ [ISNET.input.name]: toInputTensor(input, iw, ih, ISNET) }, [
    ISNET.output.name,
  ]);
  const prob = resizeMap(
    decodeOutput(out[ISNET.output.name]!, ISNET),
    crop[2] - crop[0],
    crop[3] - crop[1],
  );
  const mask = new Uint8Array(width * height);
  for (let y = crop[1]; y < crop[3]; y++) {
    for (let x = crop[0]; x < crop[2]; x++)
      mask[y * width + x] = prob.data[(y - crop[1]) * prob.width + (x - crop[0])]! >= 0.5 ? 255 : 0;
  }
  return mask;
}

/** SAM's probability from a box, with its own estimate of the mask's IoU. */
export async function samFromBox(
  encoder: Session,
  decoder: Session,
  planes: Float32Array[],
  width: number,
  height: number,
  box: Box,
): Promise<{ probability: FloatMap; score: number }> {
  const embedding = await samEmbedding(encoder, planes, width, height);
  const res = await decoder.run(
    { image_embeddings: embedding, ...samDecoderFeeds({ box }, width, height) },
    SAM_IO.decoderOutputs,
  );
  return {
    probability: samMask(res.low_res_masks!, width, height),
    score: res.iou_predictions!.data[0]!,
  };
}

function binary(map: FloatMap): Uint8Array {
  const out = new Uint8Array(map.data.length);
  for (let i = 0; i < out.length; i++) out[i] = map.data[i]! >= 0.5 ? 255 : 0;
  return out;
}
