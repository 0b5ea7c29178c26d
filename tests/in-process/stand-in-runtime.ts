import { BUILTIN_MODELS } from '../../engine/models/catalog';
import type { ModelManifest } from '../../engine/models/manifest';
import { DETECTOR_IO, DETECTOR_SIDE } from '../../engine/prompts/detector';
import { CENTERNET, SAM_DECODER, SAM_ENCODER } from '../../engine/prompts/models';
import { SAM_IO, SAM_SIDE } from '../../engine/prompts/sam';
import type { InferenceSession, ModelFile, TensorData } from '../../engine/runtime';
import type { ServedRuntime } from '../../lib/inference/runtime-rpc';

/**
 * STAND-IN, in-process tier only: an InferenceRuntime behind the engine's port that answers every
 * model at once with one known subject, so the in-process tests exercise the engine, ffmpeg and the
 * services around it without the minutes real models take on a CPU. The subject is the ellipse
 * centred in the picture with half-axes a quarter of its width and three eighths of its height
 * (`inSubject`): segmenters mark it, the detector finds one person around it, SAM outlines the
 * box or the points it is given. The same paths run on the real models in the integration tier.
 */
export const STAND_IN_RUNTIME_NAME = 'stand-in (in-process tests)';

/** Whether (x, y), in a picture of width × height, lies in the stand-in's subject. */
export function inSubject(x: number, y: number, width: number, height: number): boolean {
  const dx = (x + 0.5 - width / 2) / (width / 4);
  const dy = (y + 0.5 - height / 2) / ((3 * height) / 8);
  return dx * dx + dy * dy <= 1;
}

const SURE = 1;

export function standInRuntime(): ServedRuntime {
  return {
    name: STAND_IN_RUNTIME_NAME,
    device: () => Promise.resolve({ device: 'cpu', adapter: STAND_IN_RUNTIME_NAME, notChosen: {} }),
    load: (model: ModelFile) => Promise.resolve(session(answerFor(model))),
  };
}

type Answer = (feeds: Record<string, TensorData>) => Record<string, TensorData>;

function session(answer: Answer): InferenceSession {
  return { run: (feeds) => Promise.resolve(answer(feeds)), release: () => Promise.resolve() };
}

function answerFor(model: ModelFile): Answer {
  if (model.id === CENTERNET.id) return detector;
  if (model.id === SAM_ENCODER.id)
    return () => ({
      [SAM_IO.embedding]: { data: new Float32Array(256 * 64 * 64), dims: [1, 256, 64, 64] },
    });
  if (model.id === SAM_DECODER.id) return samDecoder;
  const manifest = BUILTIN_MODELS.find((m) => m.id === model.id);
  if (!manifest)
    throw new Error(
      `The stand-in runtime has no answer for model "${model.id}": ` +
        'test it in the integration tier.',
    );
  return (feeds) => segmenter(manifest, feeds);
}

/** A segmentation model's output in its declared layout: the subject in its decoded channel(s). */
function segmenter(
  m: ModelManifest,
  feeds: Record<string, TensorData>,
): Record<string, TensorData> {
  const dims = feeds[m.input.name]!.dims;
  const [h, w] = m.input.layout === 'nchw' ? [dims[2]!, dims[3]!] : [dims[1]!, dims[2]!];
  const c = m.output.channels;
  const subjectChannels =
    m.output.decode.kind === 'probability' ? [m.output.decode.channel] : m.output.decode.channels;
  const data = new Float32Array(c * h * w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = inSubject(x, y, w, h) ? SURE : 1 - SURE;
      for (let k = 0; k < c; k++) {
        const v = subjectChannels.includes(k) ? p : 1 - p;
        data[m.output.layout === 'nchw' ? k * h * w + y * w + x : (y * w + x) * c + k] = v;
      }
    }
  }
  const out: Record<string, TensorData> = {
    [m.output.name]: { data, dims: m.output.layout === 'nchw' ? [1, c, h, w] : [1, h, w, c] },
  };
  // A recurrent model's state goes round unchanged.
  for (const s of m.recurrent?.state ?? []) out[s.output] = feeds[s.input]!;
  return out;
}

const GRID = DETECTOR_SIDE / 4;
const COCO_CLASSES = 80;

/** CenterNet's heatmaps and box sides: one person (class 0), sure, boxed around the subject. */
function detector(): Record<string, TensorData> {
  const n = GRID * GRID;
  const heat = new Float32Array(COCO_CLASSES * n);
  const sides = new Float32Array(4 * n);
  const centre = (GRID / 2) * GRID + GRID / 2;
  heat[centre] = 0.9;
  // Distances from the centre cell to the box's left, top, right and bottom, in the 512² input.
  for (let i = 0; i < 4; i++)
    sides[i * n + centre] = i % 2 === 0 ? DETECTOR_SIDE / 4 : (3 * DETECTOR_SIDE) / 8;
  return {
    [DETECTOR_IO.heatmap]: { data: heat, dims: [1, COCO_CLASSES, GRID, GRID] },
    [DETECTOR_IO.sides]: { data: sides, dims: [1, 4, GRID, GRID] },
  };
}

const LOW_RES = 256;
const TO_LOW_RES = LOW_RES / SAM_SIDE;
/** Radius, in the 1024² prompt space, of what a clicked point selects. */
const POINT_REACH = 96;

/** SAM's decoder: the prompt's box, plus a disc around each point it includes, as sure logits. */
function samDecoder(feeds: Record<string, TensorData>): Record<string, TensorData> {
  const coords = feeds.point_coords!.data;
  const labels = feeds.point_labels!.data;
  const boxes: number[][] = [];
  const points: number[][] = [];
  for (let i = 0; i < labels.length; i++) {
    const [x, y] = [coords[2 * i]! * TO_LOW_RES, coords[2 * i + 1]! * TO_LOW_RES];
    if (labels[i] === 1) points.push([x, y]);
    if (labels[i] === 2) boxes.push([x, y]);
    if (labels[i] === 3) boxes[boxes.length - 1]!.push(x, y);
  }
  const reach = POINT_REACH * TO_LOW_RES;
  const logits = new Float32Array(LOW_RES * LOW_RES).fill(-10);
  for (let y = 0; y < LOW_RES; y++) {
    for (let x = 0; x < LOW_RES; x++) {
      const inBox = boxes.some(([x0, y0, x1, y1]) => x >= x0! && x < x1! && y >= y0! && y < y1!);
      const nearPoint = points.some(([px, py]) => (x - px!) ** 2 + (y - py!) ** 2 <= reach * reach);
      if (inBox || nearPoint) logits[y * LOW_RES + x] = 10;
    }
  }
  return {
    [SAM_IO.decoderOutputs[0]]: { data: logits, dims: [1, 1, LOW_RES, LOW_RES] },
    [SAM_IO.decoderOutputs[1]]: { data: Float32Array.of(0.9), dims: [1, 1] },
  };
}
