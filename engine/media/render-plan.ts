import { type EncodeBranch, type OutputFormat, type StepsContext, type ZipPlan } from '../formats';
import { clearTransparent } from '../formats/codecs';
import {
  cropFilters,
  croppedSize,
  evenDown,
  finishFilters,
  fitWidth,
  outputGeometry,
  parseRational,
  stickerGeometry,
  type OutputGeometry,
} from './geometry';
import { safeImageInputArgs, safeInputArgs, type ImageDemuxer } from './input';
import { normalizeFilters, startFilters } from './normalize';
import type { OutputPromise } from './output-metadata';
import { formatOf, type Blur, type CompositionTemplate, type Recipe } from './recipe';
import { planSticker, type StickerPlan } from './sticker-plan';
import { thumbnailFrame } from './thumbnails';
import type { MediaInfo } from './types';

/**
 * Pure planning of renders: "original + a mask + a recipe" → the ffmpeg runs that make the file,
 * what to pack into a ZIP, and what the file promises. This module is the filter-graph
 * plumbing (inputs, timeline, merge, transform, composite, audio); each format's own encoding
 * comes from its catalogue module (engine/formats). lib/media/render.ts executes the plans.
 */

export type { ImageDemuxer } from './input';
export type { ZipPlan } from '../formats';

/** A background for compositions, already fetched and probed by the caller. */
export type BackgroundInput =
  | { kind: 'image'; file: string; demuxer: ImageDemuxer; width: number; height: number }
  | { kind: 'video'; file: string; info: MediaInfo };

/** The original and its mask, as every render of one job reads them. */
export interface RenderSource {
  info: MediaInfo;
  source: string;
  /**
   * The matte: an FFV1 greyscale file (the server's mask versions), or null when the source's own
   * alpha channel is the matte (the studio's cut-out, VP9 with alpha, which ffmpeg.wasm renders in
   * the browser from the same plans).
   */
  mask: string | null;
  /** The frame-pixel cap the source and a background video were probed under. */
  maxPixels: number;
  /** Frames in the mask = frames of the normalized source. */
  maskFrames: number;
  /** Whose ffmpeg runs the plan (native unless said): ffmpeg.wasm lacks some encoders (engine/formats/sticker.ts). */
  runner?: FfmpegRunner;
}

export type FfmpegRunner = 'native' | 'wasm';

export interface RenderPlanInput extends RenderSource {
  recipe: Recipe;
  background?: BackgroundInput;
  /** The final file (for bundles: the ZIP). */
  output: string;
  /** A private scratch folder for intermediates (palettes, bundle members, PNG frames). */
  workDir: string;
}

export interface RenderPlan {
  format: OutputFormat;
  promise: OutputPromise;
  /** ffmpeg argument lists (without the binary and its global flags), run in order. */
  steps: string[][];
  zip?: ZipPlan;
  /** Bundle members, for validation. */
  members?: { color: string; alpha: string; audio: string | null };
  geometry: OutputGeometry;
  /** After the steps: what turns the branch's intermediate into the file (engine/formats FinishKind). */
  finish?: PlannedFinish;
}

export type PlannedFinish =
  | { kind: 'sticker'; sticker: StickerPlan }
  | {
      kind: 'hevc-alpha';
      /** FFV1 yuva420p (+ AAC) in NUT, at the output's size and rate. */
      intermediate: string;
      output: string;
      fpsRational: string;
      hasAudio: boolean;
    };

/** `reverse` holds every frame in memory; refuse what would not fit rather than swap or crash. */
export const MAX_REVERSE_BYTES = 3 * 1024 ** 3;

const SRC = 'src';
const MATTE = 'matte';
/** The label of the finished picture each format encodes from. */
const PICTURE = 't';
const OUTPUT_ARGS = ['-map_metadata', '-1', '-map_chapters', '-1'];

/**
 * The pixel format colour is merged and composited in: 4:2:0 where the file ends up 4:2:0
 * (about 30 % less CPU than 4:4:4), 4:4:4 for ProRes and the RGB image formats.
 */
export function workingFormat(recipe: Recipe): 'yuv420p' | 'yuv444p' {
  return formatOf(recipe).workingFormat;
}
const withAlpha = (fmt: string) => `format=${fmt.replace('yuv', 'yuva')}`;

export class RenderPlanError extends Error {
  override name = 'RenderPlanError';
}

/** Size, rate and length of the output a recipe makes from this source. */
function geometryOf(p: RenderPlanInput, format: OutputFormat): { fg: OutputGeometry; out: OutputGeometry } {
  const transform = p.recipe.transform;
  const fg = format.sticker
    ? stickerGeometry(p.info, p.maskFrames, transform, { ...format.sticker, gifRates: format.sticker.codec.gifRates })
    : outputGeometry(p.info, p.maskFrames, transform, { snapToGifRate: format.snapToGifRate ?? false });
  const out =
    p.recipe.kind === 'composition' ? compositionGeometry(fg, p.recipe.template, p.background, transform?.max_width, p.info) : fg;
  if (out.reverse) {
    const bytes = out.frames * out.width * out.height * 4;
    if (bytes > MAX_REVERSE_BYTES) {
      throw new RenderPlanError(
        `Reverse playback holds every frame in memory and is limited to about ${Math.round(MAX_REVERSE_BYTES / 1024 ** 3)} GB of frames; ` +
          `this output needs ${(bytes / 1024 ** 3).toFixed(1)} GB. Use a shorter clip, a crop or max_width.`,
      );
    }
  }
  return { fg, out };
}

function promiseOf(format: OutputFormat, g: OutputGeometry, hasAudio: boolean): OutputPromise {
  return {
    profile: format.profile,
    codec: format.codec,
    container: format.container,
    width: g.width,
    height: g.height,
    fps: g.fps,
    frames: g.frames,
    duration: g.duration,
    alpha: format.alpha,
    inverted: format.inverted,
    hasAudio,
    loop: format.loop,
  };
}

/** ffmpeg's own VP8/VP9 decoders drop the alpha side stream; libvpx reads it. */
const ALPHA_DECODERS: Readonly<Record<string, string>> = { vp9: 'libvpx-vp9', vp8: 'libvpx' };

const sourceInputs = (s: RenderSource) =>
  s.mask === null
    ? ['-c:v', ALPHA_DECODERS[s.info.videoCodec] ?? s.info.videoCodec, ...safeInputArgs(s.info, s.source, s.maxPixels)]
    : [...safeInputArgs(s.info, s.source, s.maxPixels), ...safeInputArgs({ demuxer: 'matroska' }, s.mask, s.maxPixels)];

/** The ffmpeg input index of a composition's background: after the source and its mask file. */
const backgroundInput = (s: Pick<RenderSource, 'mask'>) => (s.mask === null ? 1 : 2);

/** Source and matte on the shared timeline, as [src] (in `working`) and [matte]. */
function timeline(s: Pick<RenderSource, 'info' | 'mask'>, working: string, extra: string[] = []): string[] {
  const onTimeline = [...normalizeFilters(s.info), ...extra];
  if (s.mask === null) {
    return [
      `[0:v]${[...onTimeline, 'format=yuva444p'].join(',')},split[${SRC}_c][${SRC}_a]`,
      `[${SRC}_c]format=${working}[${SRC}]`,
      `[${SRC}_a]alphaextract,format=gray[${MATTE}]`,
    ];
  }
  return [`[0:v]${[...onTimeline, `format=${working}`].join(',')}[${SRC}]`, `[1:v]${[...onTimeline, 'format=gray'].join(',')}[${MATTE}]`];
}

interface Picture {
  inputs: string[];
  /** Filters ending in the picture [t] (audio not included). */
  filters: string[];
}

/**
 * The picture a format encodes, as [t]: for transparent recipes the colour merged with its
 * matte and then transformed (so both are cropped, scaled and retimed together); for opaque
 * recipes the composite.
 */
function picture(p: RenderPlanInput, fg: OutputGeometry, out: OutputGeometry, select: string[] = []): Picture {
  const working = workingFormat(p.recipe);
  const base = timeline(p, working, select);
  if (p.recipe.kind === 'transparent') {
    const t = [...cropFilters(fg), ...finishFilters(fg, croppedSize(fg, p.info))];
    // The explicit alpha format stops format negotiation from dropping alpha after a scale.
    return { inputs: sourceInputs(p), filters: [...base, `[${SRC}][${MATTE}]alphamerge,${[...t, withAlpha(working)].join(',')}[${PICTURE}]`] };
  }
  const composite = opaqueGraph(p, fg, out);
  return { inputs: [...sourceInputs(p), ...composite.inputs], filters: [...base, ...composite.filters] };
}

/** One ffmpeg output of a branch-encoded format. */
function branchArgs(b: EncodeBranch, input: string, label: string, audioLabel: string | null, output: string) {
  return {
    filters: b.tail(input, label),
    args: ['-map', `[${label}]`, ...(audioLabel ? ['-map', audioLabel] : []), ...b.encoder, ...OUTPUT_ARGS, output],
  };
}

/**
 * Where a branch with a finish writes its intermediate, and the finish that reads it: the
 * sticker's master and its attempts, or the HEVC-with-alpha encode.
 */
function planFinish(p: RenderPlanInput, format: OutputFormat, out: OutputGeometry, promise: OutputPromise): { file: string; finish: PlannedFinish } | null {
  if (format.encoding.kind !== 'branch' || !format.encoding.finish) return null;
  if (format.encoding.finish === 'sticker') {
    const master = `${p.workDir}/master.mkv`;
    const masterInput = safeInputArgs({ demuxer: 'matroska' }, master, p.maxPixels);
    const sticker = planSticker({ format, runner: p.runner ?? 'native', geometry: out, promise, master, masterInput, output: p.output, workDir: p.workDir, outputArgs: OUTPUT_ARGS });
    return { file: master, finish: { kind: 'sticker', sticker } };
  }
  const intermediate = `${p.workDir}/intermediate.nut`;
  return { file: intermediate, finish: { kind: 'hevc-alpha', intermediate, output: p.output, fpsRational: out.fpsRational, hasAudio: promise.hasAudio } };
}

export function planRender(p: RenderPlanInput): RenderPlan {
  const format = formatOf(p.recipe);
  const { fg, out } = geometryOf(p, format);
  const sourceDuration = p.maskFrames / parseRational(p.info.fpsRational);
  const hasAudio = format.keepsAudio && (p.info.hasAudio || backgroundAudio(p) !== null);
  const audio = hasAudio ? audioGraph(p, sourceDuration, out.reverse) : null;
  const pic = picture(p, fg, out);
  const ctx = { audio: Boolean(audio), crf: p.recipe.kind === 'blur' || p.recipe.kind === 'composition' ? p.recipe.crf : undefined };
  const promise = promiseOf(format, out, hasAudio);
  const common = { format, promise, geometry: out };
  if (format.encoding.kind === 'branch') {
    const finish = planFinish(p, format, out, promise);
    const branch = branchArgs(format.encoding.branch(ctx), PICTURE, 'v', audio?.label ?? null, finish?.file ?? p.output);
    const graph = [...pic.filters, ...branch.filters, ...(audio?.filters ?? [])];
    return { ...common, steps: [[...pic.inputs, '-filter_complex', graph.join(';'), ...branch.args]], ...(finish ? { finish: finish.finish } : {}) };
  }
  const steps: StepsContext = {
    ...ctx,
    inputs: pic.inputs,
    graph: [...pic.filters, ...(audio?.filters ?? [])],
    audioLabel: audio?.label ?? null,
    output: p.output,
    workDir: p.workDir,
    info: p.info,
    geometry: out,
    outputArgs: OUTPUT_ARGS,
  };
  return { ...common, ...format.encoding.steps(steps) };
}

// ── Batches: one decode feeding several encoders ──────────────────────────────────────────

export interface BatchPlanInput extends RenderSource {
  outputs: { recipe: Recipe & { kind: 'transparent' }; output: string; workDir: string }[];
}

export interface BatchPlan {
  /** One ffmpeg run writing every output whose format is a single branch (empty when none is). */
  shared: string[] | null;
  /** Per output, in order: its plan (promise, geometry, format; `steps` only where it runs on its own). */
  plans: RenderPlan[];
}

/**
 * Transparent outputs of one original and mask: the source and the mask are decoded, put on the
 * timeline and merged once, then split to every branch-encoded output, each with its own
 * transform and encoder, in one ffmpeg run. Formats with several passes or files (GIF, PNG
 * sequence, pro bundle) keep their own runs. A branch with a finish (stickers, hevc_alpha)
 * writes its intermediate in the shared run; its finish (a sticker's attempts, the HEVC
 * encode) then runs from that file, in the same task.
 */
export function planBatch(b: BatchPlanInput): BatchPlan {
  const plans = b.outputs.map((o) => planRender({ ...b, recipe: o.recipe, output: o.output, workDir: o.workDir }));
  const joined = plans.flatMap((plan, i) => (plan.format.encoding.kind === 'branch' ? [{ plan, i }] : []));
  if (joined.length < 2) return { shared: null, plans };
  const working = joined.some(({ plan }) => plan.format.workingFormat === 'yuv444p') ? 'yuv444p' : 'yuv420p';
  const filters = [
    ...timeline(b, working),
    `[${SRC}][${MATTE}]alphamerge,${withAlpha(working)},split=${joined.length}${joined.map((_, k) => `[m${k}]`).join('')}`,
  ];
  const withAudio = joined.filter(({ plan }) => plan.promise.hasAudio);
  if (withAudio.length) {
    const d = (b.maskFrames / parseRational(b.info.fpsRational)).toFixed(6);
    filters.push(`[0:a:0]atrim=duration=${d},aresample=48000,asplit=${withAudio.length}${withAudio.map((_, k) => `[as${k}]`).join('')}`);
  }
  const args: string[] = [];
  joined.forEach(({ plan, i }, k) => {
    const g = plan.geometry;
    const t = [...cropFilters(g), ...finishFilters(g, croppedSize(g, b.info)), withAlpha(plan.format.workingFormat)];
    filters.push(`[m${k}]${t.join(',')}[t${k}]`);
    const a = withAudio.findIndex((w) => w.i === i);
    if (a >= 0) filters.push(`[as${a}]${g.reverse ? 'areverse' : 'anull'}[ao${k}]`);
    if (plan.format.encoding.kind !== 'branch') throw new Error('unreachable');
    const file = plan.finish?.kind === 'sticker' ? plan.finish.sticker.master : plan.finish?.kind === 'hevc-alpha' ? plan.finish.intermediate : b.outputs[i]!.output;
    const branch = branchArgs(plan.format.encoding.branch({ audio: a >= 0 }), `t${k}`, `v${k}`, a >= 0 ? `[ao${k}]` : null, file);
    filters.push(...branch.filters);
    args.push(...branch.args);
    plans[i] = { ...plan, steps: [] };
  });
  return { shared: [...sourceInputs(b), '-filter_complex', filters.join(';'), ...args], plans };
}

// ── Posters: one still of an output ─────────────────────────────────────────────────────────

/**
 * A PNG of one frame of the output as its format shows it (cut-out with alpha, matte, stacked
 * frame or composite), at the size of the output's frames (a stacked frame is twice as high):
 * the representative frame of the source (engine/media/thumbnails.ts), so it is decoded from
 * the start but never far.
 */
export function planPoster(p: RenderPlanInput, file: string): { args: string[]; width: number; height: number } {
  const format = formatOf(p.recipe);
  const { fg, out } = geometryOf(p, format);
  const still = (g: OutputGeometry): OutputGeometry => ({ ...g, retimed: false, reverse: false });
  const pic = picture(p, still(fg), still(out));
  const frame = thumbnailFrame(p.maskFrames, parseRational(p.info.fpsRational));
  const branch =
    format.encoding.kind === 'branch' && !format.encoding.finish ? format.encoding.branch({ audio: false }).tail(PICTURE, 'shown') : [`[${PICTURE}]null[shown]`];
  const alpha = ['straight', 'binary', 'separate'].includes(format.alpha);
  const pick = `[shown]select='eq(n\\,${frame})'`;
  // A cut-out's hidden colour is zeroed, as in the lossless formats: the PNG shrinks several times.
  const toPng = alpha ? [`${pick}[picked]`, ...clearTransparent('picked', 'poster', 'rgba')] : [`${pick},format=rgb24[poster]`];
  const graph = [...pic.filters, ...branch, ...toPng];
  return {
    args: [...pic.inputs, '-filter_complex', graph.join(';'), '-map', '[poster]', '-frames:v', '1', '-c:v', 'png', '-update', '1', '-f', 'image2', file],
    width: out.width,
    height: format.alpha === 'stacked' ? out.height * 2 : out.height,
  };
}

// ── Opaque recipes: colour, composition, blur ───────────────────────────────────────────────

interface Composite {
  inputs: string[];
  filters: string[];
}

function opaqueGraph(p: RenderPlanInput, fg: OutputGeometry, out: OutputGeometry): Composite {
  const recipe = p.recipe;
  const work = workingFormat(recipe);
  const ALPHA_FMT = withAlpha(work);
  const blend = work === 'yuv420p' ? 'yuv420' : 'yuv444';
  const cropped = croppedSize(fg, p.info);
  const crop = cropFilters(fg);
  const cropChain = crop.length ? ',' + crop.join(',') : '';
  const merged = `[${SRC}][${MATTE}]alphamerge${cropChain},${ALPHA_FMT}[fg]`;
  // The format's own conversion follows [t] (engine/formats).
  const finish = (current: { width: number; height: number }) => [...finishFilters(out, current), `format=${work}`].join(',');
  switch (recipe.kind) {
    case 'color': {
      const c = parseColor(recipe.color);
      const size = `${cropped.width}x${cropped.height}`;
      return {
        inputs: [],
        filters: [
          merged,
          `color=c=${c}:s=${size}:r=${p.info.fpsRational},format=${work}[bg]`,
          `[bg][fg]overlay=shortest=1:format=${blend},${finish(cropped)}[${PICTURE}]`,
        ],
      };
    }
    case 'blur': {
      const blur = blurFilter(recipe.blur, cropped);
      // mode background: sharp subject over a blurred frame; mode subject: blurred subject over the sharp frame.
      const subjectBlurred = recipe.blur.mode === 'subject';
      const cropPrefix = crop.length ? crop.join(',') + ',' : '';
      return {
        inputs: [],
        filters: [
          `[${SRC}]${cropPrefix}split=3[sharp][toblur][plain]`,
          `[${MATTE}]${cropPrefix}split[m][side]`,
          ...ownSideBlur(blur, subjectBlurred, ALPHA_FMT, blend),
          `[${subjectBlurred ? 'blurred' : 'sharp'}][m]alphamerge,${ALPHA_FMT}[fg]`,
          `[${subjectBlurred ? 'sharp' : 'blurred'}][fg]overlay=shortest=1:format=${blend},${finish(cropped)}[${PICTURE}]`,
        ],
      };
    }
    case 'composition': {
      const bg = p.background;
      if (!bg) throw new RenderPlanError('A composition needs a background file.');
      const layout = templateLayout(recipe.template, cropped, bg);
      const canvas = layout.canvas;
      const cover = `scale=${canvas.width}:${canvas.height}:force_original_aspect_ratio=increase,crop=${canvas.width}:${canvas.height},setsar=1,format=${work}`;
      const bgChain =
        bg.kind === 'image'
          ? // One decoded picture, scaled once, then repeated on the output's clock.
            `[${backgroundInput(p)}:v]${cover},loop=loop=-1:size=1,setpts=N/(${p.info.fpsRational})/TB,fps=${p.info.fpsRational}[bg]`
          : `[${backgroundInput(p)}:v]${[...startFilters(bg.info), `fps=${p.info.fpsRational}`, cover].join(',')}[bg]`;
      const fgChain = [
        ...(layout.fg.width !== cropped.width || layout.fg.height !== cropped.height
          ? [`scale=${layout.fg.width}:${layout.fg.height}:flags=bicubic`]
          : []),
        ...(layout.opacity < 1 ? [`lut=a='val*${layout.opacity}'`] : []),
      ];
      return {
        inputs:
          bg.kind === 'image'
            ? safeImageInputArgs(bg.demuxer, bg.file)
            : ['-stream_loop', '-1', ...safeInputArgs(bg.info, bg.file, p.maxPixels)],
        filters: [
          `[${SRC}][${MATTE}]alphamerge,${[...crop, ...fgChain, ALPHA_FMT].join(',')}[fg]`,
          bgChain,
          `[bg][fg]overlay=x=${layout.x}:y=${layout.y}:shortest=1:format=${blend},${finish(canvas)}[${PICTURE}]`,
        ],
      };
    }
    case 'transparent':
      throw new Error('unreachable');
  }
}

/**
 * Where the foreground goes on the canvas.
 * - `full`: the canvas is the foreground's frame; the background covers it.
 * - `centered`: the canvas is the background's frame (long side at most 1920); the foreground is
 *   fitted inside it and centred.
 * - `ai_ugc_ad`: the background's canvas; the foreground is 35 % of its width, at the bottom-right
 *   corner, at 95 % opacity.
 */
export function templateLayout(
  template: CompositionTemplate,
  fg: { width: number; height: number },
  bg: BackgroundInput,
): { canvas: { width: number; height: number }; fg: { width: number; height: number }; x: number; y: number; opacity: number } {
  if (template === 'full') return { canvas: fg, fg, x: 0, y: 0, opacity: 1 };
  const bgSize = bg.kind === 'image' ? bg : bg.info;
  const scale = Math.min(1, 1920 / Math.max(bgSize.width, bgSize.height));
  const canvas = { width: evenDown(bgSize.width * scale), height: evenDown(bgSize.height * scale) };
  if (template === 'centered') {
    const s = Math.min(canvas.width / fg.width, canvas.height / fg.height);
    const size = { width: evenDown(fg.width * s), height: evenDown(fg.height * s) };
    return {
      canvas,
      fg: size,
      x: Math.floor((canvas.width - size.width) / 2),
      y: Math.floor((canvas.height - size.height) / 2),
      opacity: 1,
    };
  }
  const width = evenDown(canvas.width * 0.35);
  const height = Math.min(evenDown((fg.height * width) / fg.width), canvas.height);
  return { canvas, fg: { width, height }, x: canvas.width - width, y: canvas.height - height, opacity: 0.95 };
}

function compositionGeometry(
  fg: OutputGeometry,
  template: CompositionTemplate,
  bg: BackgroundInput | undefined,
  maxWidth: number | undefined,
  source: { width: number; height: number },
): OutputGeometry {
  if (template === 'full') return fg;
  if (!bg) throw new RenderPlanError('A composition needs a background file.');
  const { canvas } = templateLayout(template, croppedSize(fg, source), bg);
  return { ...fg, ...fitWidth(canvas.width, canvas.height, maxWidth) };
}

/**
 * `#RRGGBB` or `#RRGGBBAA` → an ffmpeg colour. The outputs that take a colour are opaque video,
 * so a colour with alpha is flattened over black: #FFFFFF80 becomes #808080.
 */
export function parseColor(hex: string): string {
  const m = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m?.[1]) throw new RenderPlanError(`Invalid background colour "${hex}": use #RRGGBB or #RRGGBBAA.`);
  const rgb = m[1];
  const a = m[2] ? parseInt(m[2], 16) / 255 : 1;
  const channels = [0, 2, 4].map((i) => Math.round(parseInt(rgb.slice(i, i + 2), 16) * a));
  return '0x' + channels.map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/**
 * Blur strength: intensity 0..100 maps linearly to a radius of 0..5 % of the frame's shorter
 * side (36 px at 720p). `gaussian` uses that radius as the Gaussian sigma; `box` uses it as the
 * radius of a box blur applied twice (close to a Gaussian, cheaper). Intensity 0 leaves the
 * region sharp.
 */
export function blurRadius(intensity: number, size: { width: number; height: number }): number {
  const i = Math.min(100, Math.max(0, intensity));
  if (i === 0) return 0;
  return Math.max(1, Math.round((i / 100) * 0.05 * Math.min(size.width, size.height)));
}

/**
 * `[toblur]` blurred from its own side of the matte only (`[side]`: the matte; the subject's side
 * when `subject`, else the background's), as `[blurred]`: blur(colour × weight) / blur(weight).
 * A plain blur of the whole frame makes a bright subject glow into the blurred background around
 * it (and the background bleed into a blurred subject). Where the weight's blur is under 1/8
 * (lut clips val*8 to 255) the division only amplifies rounding; that is deep inside the other
 * side, which covers it, so the frame as it is (`[plain]`) shows there: through a hole in the
 * subject's matte, the subject itself rather than a blur of it.
 */
function ownSideBlur(blur: string, subject: boolean, alphaFmt: string, blend: string): string[] {
  if (blur === 'null') return ['[toblur]null[blurred]', '[plain]nullsink', '[side]nullsink'];
  return [
    `[side]${subject ? 'null' : 'negate'}[weight]`,
    `[toblur]${alphaFmt}[tw]`,
    `[tw][weight]alphamerge,premultiply=inplace=1,${blur},unpremultiply=inplace=1,lut=a=val*8[own]`,
    `[plain][own]overlay=format=${blend}[blurred]`,
  ];
}

function blurFilter(blur: Blur, size: { width: number; height: number }): string {
  const r = blurRadius(blur.intensity, size);
  if (r === 0) return 'null';
  return blur.type === 'box' ? `boxblur=luma_radius=${r}:luma_power=2` : `gblur=sigma=${r}`;
}

// ── Audio ───────────────────────────────────────────────────────────────────────────────────

interface AudioGraph {
  filters: string[];
  label: string;
}

function backgroundAudio(p: RenderPlanInput): { volume: number } | null {
  const r = p.recipe;
  if (r.kind !== 'composition' || !r.backgroundAudio) return null;
  if (p.background?.kind !== 'video' || !p.background.info.hasAudio) return null;
  return { volume: Math.max(0, r.backgroundAudioVolume) };
}

/**
 * The source's first audio track (and, for compositions, the background's, at its volume),
 * trimmed to the video's length and reversed with it. Mixed without amix's level
 * normalisation so the source keeps its loudness.
 */
function audioGraph(p: RenderPlanInput, duration: number, reverse: boolean): AudioGraph {
  const d = duration.toFixed(6);
  const rev = reverse ? ',areverse' : '';
  const bg = backgroundAudio(p);
  const parts: string[] = [];
  const labels: string[] = [];
  if (p.info.hasAudio) {
    parts.push(`[0:a:0]atrim=duration=${d},aresample=48000[a_src]`);
    labels.push('[a_src]');
  }
  if (bg) {
    parts.push(`[${backgroundInput(p)}:a:0]aresample=48000,volume=${bg.volume},atrim=duration=${d}[a_bg]`);
    labels.push('[a_bg]');
  }
  if (labels.length === 2) {
    parts.push(`${labels.join('')}amix=inputs=2:duration=longest:normalize=0${rev}[aout]`);
  } else {
    parts.push(`${labels[0]}anull${rev}[aout]`);
  }
  return { filters: parts, label: '[aout]' };
}
