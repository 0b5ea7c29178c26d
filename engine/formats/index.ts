import { apng } from './apng';
import { discordApngV1 } from './discord-apng-v1';
import { discordGifV1 } from './discord-gif-v1';
import { gif } from './gif';
import { hevcAlpha } from './hevc-alpha';
import { imessageApngV1 } from './imessage-apng-v1';
import { lottie } from './lottie';
import { maskVideoFormat, maskVideoInverted } from './mask-video';
import { movProres } from './mov-prores';
import { mov, mp4, webm } from './opaque';
import { pngSequence } from './png-sequence';
import { proBundle } from './pro-bundle';
import { signalApngV1 } from './signal-apng-v1';
import { slackGifV1 } from './slack-gif-v1';
import { stackedVideo, stackedVideoMaskInverted } from './stacked-video';
import { telegramEmojiV1 } from './telegram-emoji-v1';
import { telegramVideoV1 } from './telegram-video-v1';
import type { OutputFormat } from './types';
import { webmVp9 } from './webm-vp9';
import { webp } from './webp';
import { whatsappWebpV1 } from './whatsapp-webp-v1';

export type {
  EncodeBranch,
  EncodeContext,
  EncodeSteps,
  FinishKind,
  FormatEncoding,
  LottieOptions,
  LottiePlan,
  OutputFormat,
  StepsContext,
  ZipPlan,
} from './types';
export { DEFAULT_LOTTIE_OPTIONS } from './lottie';
export type {
  AttemptEncode,
  AttemptIO,
  FramesJob,
  StickerPolicy,
  StickerQuality,
} from './sticker-policy';
export { LOTTIE_PRESETS, X264_PRESETS, type LottiePreset, type X264Preset } from './codecs';
export { STICKER_MAX_FPS, STICKER_MAX_INPUT_SECONDS, STICKER_MIN_FPS } from './sticker-policy';

/**
 * The one catalogue of output formats, in the order the dashboard offers them. Adding a format
 * is one module in this folder and one line here.
 */
export const OUTPUT_FORMATS = [
  webmVp9,
  movProres,
  hevcAlpha,
  stackedVideo,
  stackedVideoMaskInverted,
  maskVideoFormat,
  maskVideoInverted,
  proBundle,
  pngSequence,
  webp,
  gif,
  apng,
  lottie,
  mp4,
  webm,
  mov,
  telegramVideoV1,
  telegramEmojiV1,
  whatsappWebpV1,
  discordApngV1,
  discordGifV1,
  signalApngV1,
  imessageApngV1,
  slackGifV1,
] as const satisfies readonly OutputFormat[];

type AnyFormat = (typeof OUTPUT_FORMATS)[number];
export type FormatId = AnyFormat['id'];
/** Formats asked for by name: `transparent_format`, `exports`, `batch-exports`. */
export type TransparentFormat = Extract<AnyFormat, { family: 'transparent' }>['id'];
/** Containers of opaque outputs: a composition's `export_format`. */
export type OpaqueContainer = Extract<AnyFormat, { family: 'opaque' }>['id'];
/** Versioned chat-app sticker formats: asked for by name in exports. */
export type StickerFormat = Extract<AnyFormat, { family: 'sticker' }>['id'];
/** What an export may be: a transparent format or a sticker format. */
export type ExportFormat = TransparentFormat | StickerFormat;

const ids = <F extends AnyFormat>(pick: (f: AnyFormat) => f is F) =>
  OUTPUT_FORMATS.filter(pick).map((f) => f.id);
export const TRANSPARENT_FORMATS = ids(
  (f): f is Extract<AnyFormat, { family: 'transparent' }> => f.family === 'transparent',
) as [TransparentFormat, ...TransparentFormat[]];
export const OPAQUE_CONTAINERS = ids(
  (f): f is Extract<AnyFormat, { family: 'opaque' }> => f.family === 'opaque',
) as [OpaqueContainer, ...OpaqueContainer[]];

/**
 * Each name a composition's `export_format` may use (an opaque container or an alias, `h264`) →
 * that container.
 */
const CONTAINER_BY_NAME = new Map<string, OpaqueContainer>(
  OUTPUT_FORMATS.flatMap((f) =>
    f.family === 'opaque'
      ? [f.id, ...('aliases' in f ? f.aliases : [])].map((name) => [name, f.id] as const)
      : [],
  ),
);

/** What a composition's `export_format` may name: the opaque containers and their aliases. */
export const CONTAINER_NAMES = [...CONTAINER_BY_NAME.keys()] as [string, ...string[]];

/** The opaque container a name (or alias) stands for. */
export function containerNamed(name: string): OpaqueContainer {
  const id = CONTAINER_BY_NAME.get(name);
  if (!id) throw new Error(`Unknown container ${name}`);
  return id;
}

export const STICKER_FORMATS = ids(
  (f): f is Extract<AnyFormat, { family: 'sticker' }> => f.family === 'sticker',
) as [StickerFormat, ...StickerFormat[]];
export const EXPORT_FORMATS: [ExportFormat, ...ExportFormat[]] = [
  ...TRANSPARENT_FORMATS,
  ...STICKER_FORMATS,
];
/** The format a transparent output gets when the request names none. */
export const DEFAULT_FORMAT: TransparentFormat = 'webm_vp9';

export function outputFormat(id: FormatId): OutputFormat {
  return OUTPUT_FORMATS.find((f) => f.id === id)!;
}

export function isTransparentFormat(id: string): id is TransparentFormat {
  return (TRANSPARENT_FORMATS as readonly string[]).includes(id);
}

export function isStickerFormat(id: string): id is StickerFormat {
  return (STICKER_FORMATS as readonly string[]).includes(id);
}
