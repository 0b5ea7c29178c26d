import type { FloatMap } from '../matte/image';
import type { TensorData } from '../runtime';
import { probabilityOutput, RGB_UNSCALED, type ModelManifest } from './manifest';

/**
 * What feeding a model and reading its answer needs (a composite model has no file of its own);
 * a recurrent model also names the state it carries from one run to the next, and a composite
 * that follows something through time (a clicked object) the input it is told the frame's index in.
 * A composite that looks at the frame in its video (the subject stage) names the inputs it is
 * told the frame's context in: `info` gets [index, shot, width, height, index of the previous
 * luma's frame], `luma` the frame's luma
 * at the flow resolution, `previousLuma` that of the frame up to `gap` frames before it in its
 * shot (absent on a shot's first frame).
 */
export type ModelIo = Pick<ModelManifest, 'id' | 'file' | 'input' | 'output' | 'recurrent'> & {
  frameIndex?: string;
  frameContext?: { info: string; luma: string; previousLuma: string; gap: number };
};

/**
 * The I/O of a composite the engine builds from other models: the frame's RGB as it is (NCHW,
 * named "rgb") in, one probability channel (named "probability") out.
 */
export function compositeIo(
  id: string,
  file: string,
  size: ModelManifest['input']['size'],
): ModelIo {
  return {
    id,
    file,
    input: { name: 'rgb', layout: 'nchw', size, ...RGB_UNSCALED },
    output: probabilityOutput('probability', 'nchw'),
  };
}

type Recurrent = NonNullable<ModelIo['recurrent']>;

/**
 * A recurrent model's state before its first frame (a shot's, or after the view changes): a
 * zero the model broadcasts, a tensor of its own for each input, since feeds are transferred to
 * the inference thread.
 */
export function initialState(r: Recurrent): Record<string, TensorData> {
  return Object.fromEntries(
    r.state.map((s) => [s.input, { data: new Float32Array(1), dims: [1, 1, 1, 1] }]),
  );
}

/** The state a recurrent model's run returned, as the feeds of its next run. */
export function nextState(
  m: ModelIo,
  r: Recurrent,
  out: Record<string, TensorData>,
): Record<string, TensorData> {
  return Object.fromEntries(
    r.state.map((s) => {
      const t = out[s.output];
      if (!t) throw new Error(`Model ${m.id} returned no state "${s.output}"`);
      return [s.input, t];
    }),
  );
}

/**
 * The input size to feed a model: its fixed size, or, for flexible models, `side` on the long
 * edge and the frame's aspect ratio on the short one (both multiples of 32), or a square.
 */
export function modelInputSize(
  m: ModelIo,
  side: number,
  frame: { width: number; height: number },
  keepAspect: boolean,
): [number, number] {
  if (m.input.size !== 'multiple-of-32') return [m.input.size[0], m.input.size[1]];
  const r32 = (v: number) => Math.max(32, Math.round(v / 32) * 32);
  if (!keepAspect) return [r32(side), r32(side)];
  const long = Math.max(frame.width, frame.height);
  const w = r32((side * frame.width) / long);
  const h = r32((side * frame.height) / long);
  return [w, h];
}

/** R, G, B planes (0..255) at the model's input size → the normalised tensor it expects. */
export function toInputTensor(
  rgb: Float32Array[],
  width: number,
  height: number,
  m: ModelIo,
): TensorData {
  const order = m.input.channelOrder === 'rgb' ? [0, 1, 2] : [2, 1, 0];
  const n = width * height;
  const data = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const src = rgb[order[c]!]!;
    const mean = m.input.mean[c]!;
    const inv = 1 / m.input.std[c]!;
    if (m.input.layout === 'nchw') {
      const off = c * n;
      for (let i = 0; i < n; i++) data[off + i] = (src[i]! - mean) * inv;
    } else {
      for (let i = 0; i < n; i++) data[i * 3 + c] = (src[i]! - mean) * inv;
    }
  }
  const dims = m.input.layout === 'nchw' ? [1, 3, height, width] : [1, height, width, 3];
  return { data, dims };
}

/** The model's output → subject probability (0..1) at the output's resolution. */
export function decodeOutput(t: TensorData, m: ModelIo): FloatMap {
  const nchw = m.output.layout === 'nchw';
  const C = m.output.channels;
  const height = t.dims[nchw ? 2 : 1]!;
  const width = t.dims[nchw ? 3 : 2]!;
  const n = width * height;
  const channels =
    m.output.decode.kind === 'probability' ? [m.output.decode.channel] : m.output.decode.channels;
  const data = new Float32Array(n);
  for (const c of channels) {
    for (let i = 0; i < n; i++) {
      const v = nchw ? t.data[c * n + i]! : t.data[i * C + c]!;
      if (v > data[i]!) data[i] = v;
    }
  }
  for (let i = 0; i < n; i++) data[i] = Math.min(1, Math.max(0, data[i]!));
  return { data, width, height };
}
