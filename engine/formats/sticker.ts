import { parseRational } from '../media/geometry';
import { safeImageInputArgs } from '../media/input';
import {
  clearTransparent,
  GIF_ENCODER,
  gifPaletteGen,
  gifPaletteUse,
  singleImage,
  vp9ConstantQuality,
  VP9_GOOD,
  webpAnimation,
} from './codecs';
import { APNG_FILE, GIF_FILE, WEBM_VP9_ALPHA_FILE, WEBP_FILE } from './shared-traits';
import type {
  AttemptEncode,
  AttemptIO,
  FramesJob,
  StickerCodec,
  StickerPolicy,
} from './sticker-policy';
import type { OutputFormat } from './types';

/**
 * Versioned chat-app sticker formats. Each platform is one module (its canvas, loop length,
 * byte limit and attempt ladder, from ../shared/spec/sticker-platforms.md) built with
 * `stickerFormat`; the codecs they share are below. The render plan draws the picture once into
 * the sticker's master (the canvas at the start frame rate, looped length, transparent
 * padding), and the adaptive encoder (engine/media/sticker-plan.ts) then encodes the master
 * attempt after attempt until a file fits the budget. Everything here is pure: the server runs
 * it with native ffmpeg, and the browser can run the same arguments with ffmpeg.wasm.
 */

export const BUDGET_SHARE = 0.9;

/** The master every attempt reads: lossless RGBA (FFV1) with the hidden colour cleared. */
const MASTER_ENCODER = ['-c:v', 'ffv1', '-pix_fmt', 'bgra', '-f', 'matroska'];

/** Everything a sticker module states; the rest of its catalogue entry follows from the codec. */
export interface StickerDefinition {
  label: string;
  platform: string;
  canvas: number | { width: number; height: number };
  maxSeconds: number;
  capSource: StickerPolicy['capSource'];
  limitBytes: number;
  limitLabel: string;
  codec: StickerCodec;
}

export function stickerFormat<Id extends string>(
  id: Id,
  d: StickerDefinition,
): OutputFormat<Id> & { id: Id; family: 'sticker'; sticker: StickerPolicy } {
  const [, policy = id, version = '1'] = /^(.*)_v(\d+)$/.exec(id) ?? [];
  const canvas = typeof d.canvas === 'number' ? { width: d.canvas, height: d.canvas } : d.canvas;
  const { codec } = d;
  return {
    id,
    family: 'sticker',
    label: d.label,
    extension: codec.extension,
    contentType: codec.contentType,
    codec: codec.codec,
    container: codec.container,
    profile: codec.profile,
    alpha: codec.alpha,
    inverted: false,
    keepsAudio: false,
    loop: codec.loop,
    workingFormat: 'yuv444p',
    nativeOnly: true,
    studio: true,
    classicStatus: false,
    cliDefault: false,
    snapToGifRate: codec.gifRates,
    sticker: {
      policy,
      version: Number(version),
      platform: d.platform,
      canvas,
      maxSeconds: d.maxSeconds,
      capSource: d.capSource,
      limitBytes: d.limitBytes,
      limitLabel: d.limitLabel,
      budgetBytes: Math.floor(d.limitBytes * BUDGET_SHARE),
      codec,
      quality: codec.quality,
      fpsSteps: codec.fpsSteps,
    },
    encoding: {
      kind: 'branch',
      branch: () => ({ tail: (i, o) => clearTransparent(i, o, 'bgra'), encoder: MASTER_ENCODER }),
      finish: 'sticker',
    },
  };
}

// ── The codecs ───────────────────────────────────────────────────────────────────────────

/**
 * The master at this attempt's rate. The picture keeps the canvas size at every attempt: the
 * spec's ladder is quality and frame rate only, and a sticker that does not fit at their floors
 * fails rather than shrinking its subject inside the canvas.
 */
export function attemptFilters(io: AttemptIO): string[] {
  return [`fps=${io.fpsRational}`];
}

/** The attempt's frames as raw RGBA, for a `FramesJob`. */
function rawFramesStep(io: AttemptIO, rawFrames: string): string[] {
  return [
    ...io.input,
    '-vf',
    [...attemptFilters(io), 'format=rgba'].join(','),
    '-frames:v',
    String(io.frames),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    rawFrames,
  ];
}

function framesJob(io: AttemptIO, encode: FramesJob['encode']): AttemptEncode {
  const rawFrames = `${io.workDir}/frames.rgba`;
  return {
    steps: [rawFramesStep(io, rawFrames)],
    frames: {
      rawFrames,
      width: io.width,
      height: io.height,
      frames: io.frames,
      fpsRational: io.fpsRational,
      output: io.output,
      encode,
    },
  };
}

/**
 * Alpha kept to `levels` evenly spaced values (0 and 255 exact): lossless alpha compresses far
 * better.
 */
function alphaLevels(levels: number): string[] {
  if (levels >= 256) return [];
  const step = 255 / (levels - 1);
  return [`lut=a='round(val/${step.toFixed(4)})*${step.toFixed(4)}'`];
}

const BROWSER_VP9_BITS_PER_PIXEL = 0.2;

/**
 * VP9 with alpha in WebM (Telegram): constant quality, `good` deadline (small canvases, so
 * affordable).
 */
export const vp9Sticker: StickerCodec = {
  // crf on servers (libvpx); in the browser, the share of the budget aimed at (encodeInBrowser).
  quality: [
    { crf: 32, budgetShare: 0.85 },
    { crf: 40, budgetShare: 0.7 },
    { crf: 48, budgetShare: 0.55 },
  ],
  fpsSteps: [24, 20, 15, 12],
  ...WEBM_VP9_ALPHA_FILE,
  loop: false,
  gifRates: false,
  describe: (q) => `crf ${q.crf}`,
  encode: (q, io) => ({
    steps: [
      [
        ...io.input,
        '-vf',
        [...attemptFilters(io), 'format=yuva420p'].join(','),
        '-frames:v',
        String(io.frames),
        ...vp9ConstantQuality('yuva420p', q.crf!, VP9_GOOD),
        '-an',
        '-f',
        'webm',
        ...io.outputArgs,
        io.output,
      ],
    ],
  }),
  // Browsers' VP9 encoders run in real-time mode: at a fixed quantizer they made files 3–4 times
  // libvpx's at the same crf (and over Telegram's budget even at the coarsest), while a bitrate
  // lands close to its target. So a quality step there aims at its share of the budget, split
  // between the colour and the alpha stream, and at most 0.2 bits a pixel (about what crf 32
  // spends on a 100×100 emoji; a small canvas needs nothing like the whole budget).
  encodeInBrowser: (q, io) => {
    const fps = parseRational(io.fpsRational);
    const share = (q.budgetShare! * io.budgetBytes * 8) / 2 / (io.frames / fps);
    return framesJob(io, {
      kind: 'vp9-alpha',
      bitrate: Math.round(Math.min(share, BROWSER_VP9_BITS_PER_PIXEL * io.width * io.height * fps)),
    });
  },
};

/** Lossy animated WebP (WhatsApp): colour quality and alpha levels. */
export const webpSticker: StickerCodec = {
  quality: [
    { quality: 75, alphaLevels: 256 },
    { quality: 60, alphaLevels: 16 },
    { quality: 45, alphaLevels: 8 },
    { quality: 30, alphaLevels: 4 },
  ],
  fpsSteps: [20, 15, 12],
  ...WEBP_FILE,
  loop: true,
  gifRates: false,
  describe: (q) => `quality ${q.quality}, ${q.alphaLevels} alpha levels`,
  encode: (q, io) => ({
    steps: [
      [
        ...io.input,
        '-vf',
        [...attemptFilters(io), 'format=bgra', ...alphaLevels(q.alphaLevels ?? 256)].join(','),
        '-frames:v',
        String(io.frames),
        ...webpAnimation(q.quality!, 4),
        ...io.outputArgs,
        io.output,
      ],
    ],
  }),
};

/**
 * APNG (Discord, Signal, iMessage): one palette of `colours` RGBA entries with partial alpha
 * (PLTE + tRNS), about a quarter of RGBA's bytes. ffmpeg 5.1's palettes keep binary alpha only,
 * so ffmpeg writes the frames raw and upng-js quantizes and writes the APNG.
 */
export const apngSticker: StickerCodec = {
  quality: [{ colours: 256 }, { colours: 128 }, { colours: 64 }, { colours: 32 }],
  fpsSteps: [20, 15, 12],
  ...APNG_FILE,
  loop: true,
  gifRates: false,
  describe: (q) => `${q.colours} colours`,
  encode: (q, io) => framesJob(io, { kind: 'apng-palette', colours: q.colours! }),
};

/**
 * GIF (Discord, Slack): one palette for the loop plus a transparent entry; coarser dither
 * compresses better.
 */
export const gifSticker: StickerCodec = {
  quality: [
    { colours: 256, bayer: 3 },
    { colours: 128, bayer: 4 },
    { colours: 64, bayer: 5 },
  ],
  fpsSteps: [20, 100 / 6, 12.5],
  ...GIF_FILE,
  loop: true,
  gifRates: true,
  describe: (q) => `${q.colours} colours, bayer scale ${q.bayer}`,
  encode: (q, io) => {
    const palette = `${io.workDir}/palette.png`;
    const picture = attemptFilters(io).join(',');
    return {
      steps: [
        [...io.input, '-vf', `${picture},${gifPaletteGen(q.colours!)}`, ...singleImage(), palette],
        [
          ...io.input,
          ...safeImageInputArgs('png_pipe', palette),
          '-filter_complex',
          `[0:v]${picture}[p];[p][1:v]${gifPaletteUse(q.bayer!)}[v]`,
          '-map',
          '[v]',
          '-frames:v',
          String(io.frames),
          ...GIF_ENCODER,
          ...io.outputArgs,
          io.output,
        ],
      ],
    };
  },
};
