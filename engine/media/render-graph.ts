import { safeInputArgs } from './input';
import { normalizeFilters } from './normalize';
import { formatOf, type Recipe } from './recipe';
import type { RenderSource } from './render-input';

/**
 * The filter-graph plumbing every render shares: the labels its parts meet at, the inputs and
 * the timeline the source and its matte are put on.
 */

export const SRC = 'src';
export const MATTE = 'matte';
/** The label of the finished picture each format encodes from. */
export const PICTURE = 't';
export const OUTPUT_ARGS = ['-map_metadata', '-1', '-map_chapters', '-1'];

/**
 * The pixel format colour is merged and composited in: 4:2:0 where the file ends up 4:2:0
 * (about 30 % less CPU than 4:4:4), 4:4:4 for ProRes and the RGB image formats.
 */
export function workingFormat(recipe: Recipe): 'yuv420p' | 'yuv444p' {
  return formatOf(recipe).workingFormat;
}
export const withAlpha = (fmt: string) => `format=${fmt.replace('yuv', 'yuva')}`;

/** ffmpeg's own VP8/VP9 decoders drop the alpha side stream; libvpx reads it. */
const ALPHA_DECODERS: Readonly<Record<string, string>> = { vp9: 'libvpx-vp9', vp8: 'libvpx' };

/**
 * The raw frames a piped source sends (`RenderSource.piped`): planar Y′CbCr with alpha, full
 * chroma.
 */
export const PIPED_FORMAT = 'yuva444p';

const pipedInput = (s: RenderSource) => [
  '-f',
  'rawvideo',
  '-pix_fmt',
  PIPED_FORMAT,
  '-s',
  `${s.info.width}x${s.info.height}`,
  '-framerate',
  s.info.fpsRational,
  '-i',
  'pipe:0',
];

/**
 * Frames above 1920x1080 are decoded on one thread: at 3840x2160 the source's and the mask's
 * frame threads held 117 MB more (FFmpeg 5.1) beside a VP9 encoder holding 1.3 GB, and the
 * decode is a small part of such a render's time.
 */
const decodeThreads = (s: RenderSource) =>
  s.info.width * s.info.height > 1920 * 1080 ? ['-threads', '1'] : [];

/**
 * The source (input 0, its sound) and its matte or piped colour (input 1), or the source with its
 * own alpha.
 */
export const sourceInputs = (s: RenderSource) => {
  const source = [...decodeThreads(s), ...safeInputArgs(s.info, s.source, s.maxPixels)];
  return s.piped
    ? [...source, ...pipedInput(s)]
    : s.mask === null
      ? ['-c:v', ALPHA_DECODERS[s.info.videoCodec] ?? s.info.videoCodec, ...source]
      : [
          ...source,
          ...decodeThreads(s),
          ...safeInputArgs({ demuxer: 'matroska' }, s.mask, s.maxPixels),
        ];
};

/** The ffmpeg input index of a composition's background: after the source and its mask file. */
export const backgroundInput = (s: Pick<RenderSource, 'mask'>) => (s.mask === null ? 1 : 2);

/** Source and matte on the shared timeline, as [src] (in `working`) and [matte]. */
export function timeline(
  s: Pick<RenderSource, 'info' | 'mask' | 'piped'>,
  working: string,
  extra: string[] = [],
): string[] {
  const onTimeline = [...normalizeFilters(s.info), ...extra];
  if (s.mask === null || s.piped) {
    // Piped frames are on the timeline already.
    const head = s.piped
      ? `[1:v]${[...extra, 'format=yuva444p'].join(',')}`
      : `[0:v]${[...onTimeline, 'format=yuva444p'].join(',')}`;
    return [
      `${head},split[${SRC}_c][${SRC}_a]`,
      `[${SRC}_c]format=${working}[${SRC}]`,
      `[${SRC}_a]alphaextract,format=gray[${MATTE}]`,
    ];
  }
  return [
    `[0:v]${[...onTimeline, `format=${working}`].join(',')}[${SRC}]`,
    `[1:v]${[...onTimeline, 'format=gray'].join(',')}[${MATTE}]`,
  ];
}

/** A composite's extra inputs (after the source and its mask) and the filters ending in [t]. */
export interface Composite {
  inputs: string[];
  filters: string[];
}

/** What every opaque recipe's composite is built from. */
export interface CompositeContext {
  /** The working pixel format, its alpha twin as a filter, and the overlay blend format. */
  work: 'yuv420p' | 'yuv444p';
  alphaFmt: string;
  blend: string;
  /** The foreground after the crop, and the crop filters. */
  cropped: { width: number; height: number };
  crop: string[];
  /** The filters from a composite of this size to the output's frame (scale, retime, format). */
  finish: (current: { width: number; height: number }) => string;
}
