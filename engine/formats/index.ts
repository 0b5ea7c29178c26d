import { apng } from './apng';
import { gif } from './gif';
import { hevcAlpha } from './hevc-alpha';
import { maskVideoFormat, maskVideoInverted } from './mask-video';
import { movProres } from './mov-prores';
import { mov, mp4, webm } from './opaque';
import { pngSequence } from './png-sequence';
import { proBundle } from './pro-bundle';
import { stackedVideo, stackedVideoMaskInverted } from './stacked-video';
import type { OutputFormat } from './types';
import { webmVp9 } from './webm-vp9';
import { webp } from './webp';

export type { EncodeBranch, EncodeContext, EncodeSteps, FormatEncoding, OutputFormat, StepsContext, ZipPlan } from './types';

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
  mp4,
  webm,
  mov,
] as const satisfies readonly OutputFormat[];

type AnyFormat = (typeof OUTPUT_FORMATS)[number];
export type FormatId = AnyFormat['id'];
/** Formats asked for by name: `transparent_format`, `exports`, `batch-exports`. */
export type TransparentFormat = Extract<AnyFormat, { family: 'transparent' }>['id'];
/** Containers of opaque outputs: a composition's `export_format`. */
export type OpaqueContainer = Extract<AnyFormat, { family: 'opaque' }>['id'];

const ids = <F extends AnyFormat>(pick: (f: AnyFormat) => f is F) => OUTPUT_FORMATS.filter(pick).map((f) => f.id);
export const TRANSPARENT_FORMATS = ids((f): f is Extract<AnyFormat, { family: 'transparent' }> => f.family === 'transparent') as [
  TransparentFormat,
  ...TransparentFormat[],
];
export const OPAQUE_CONTAINERS = ids((f): f is Extract<AnyFormat, { family: 'opaque' }> => f.family === 'opaque') as [
  OpaqueContainer,
  ...OpaqueContainer[],
];

export function outputFormat(id: FormatId): OutputFormat {
  return OUTPUT_FORMATS.find((f) => f.id === id)!;
}

export function isTransparentFormat(id: string): id is TransparentFormat {
  return (TRANSPARENT_FORMATS as readonly string[]).includes(id);
}
