import {
  cropFilters,
  croppedSize,
  evenDown,
  finishFilters,
  fitWidth,
  outputGeometry,
  parseRational,
  type OutputGeometry,
} from './geometry';
import { safeInputArgs } from './input';
import { normalizeFilters, startFilters } from './normalize';
import { outputKind, type OutputKind } from './output-formats';
import type { OutputPromise } from './output-metadata';
import type { Blur, CompositionTemplate, ExportContainer, Recipe } from './recipe';
import { encoderArgs, opaqueEncoderArgs } from './encoders';
import type { MediaInfo } from './types';

/**
 * Pure planning of one render: "original + a mask + a recipe" → the ffmpeg runs that make the
 * file, what to pack into a ZIP, and what the file promises. lib/media/render.ts executes it;
 * the browser's encoders can reuse the same argument lists.
 */

/** A background for compositions, already fetched and probed by the caller. */
export type BackgroundInput =
  | { kind: 'image'; file: string; demuxer: ImageDemuxer; width: number; height: number }
  | { kind: 'video'; file: string; info: MediaInfo };

/** Single-image demuxers: each reads exactly one picture from the file, nothing else. */
export type ImageDemuxer = 'png_pipe' | 'jpeg_pipe' | 'webp_pipe';

export interface RenderPlanInput {
  recipe: Recipe;
  info: MediaInfo;
  source: string;
  mask: string;
  /** The frame-pixel cap the source and a background video were probed under. */
  maxPixels: number;
  /** Frames in the mask = frames of the normalized source. */
  maskFrames: number;
  background?: BackgroundInput;
  /** The final file (for bundles: the ZIP). */
  output: string;
  /** A private scratch folder for intermediates (palettes, bundle members, PNG frames). */
  workDir: string;
}

export interface ZipPlan {
  files: { file: string; name: string }[];
  /** A folder whose files are all added at the ZIP root, in name order. */
  directory?: string;
  manifest?: { name: string; json: unknown };
}

export interface RenderPlan {
  kind: OutputKind;
  promise: OutputPromise;
  /** ffmpeg argument lists (without the binary and its global flags), run in order. */
  steps: string[][];
  zip?: ZipPlan;
  /** Bundle members, for validation. */
  members?: { color: string; alpha: string; audio: string | null };
  geometry: OutputGeometry;
}

/** `reverse` holds every frame in memory; refuse what would not fit rather than swap or crash. */
export const MAX_REVERSE_BYTES = 3 * 1024 ** 3;

const SRC = 'src';

/**
 * The pixel format colour is merged and composited in: 4:2:0 where the file ends up 4:2:0
 * (about 30 % less CPU than 4:4:4), 4:4:4 for ProRes and the RGB image formats.
 */
export function workingFormat(recipe: Recipe): 'yuv420p' | 'yuv444p' {
  if (recipe.kind === 'transparent') {
    return ['mov_prores', 'png_sequence', 'apng', 'gif', 'webp'].includes(recipe.format) ? 'yuv444p' : 'yuv420p';
  }
  return recipe.exportFormat === 'mov' ? 'yuv444p' : 'yuv420p';
}
const withAlpha = (fmt: string) => `format=${fmt.replace('yuv', 'yuva')}`;
const MATTE = 'matte';

export function planRender(p: RenderPlanInput): RenderPlan {
  const kind = outputKind(p.recipe);
  const transform = p.recipe.transform;
  const isGif = p.recipe.kind === 'transparent' && p.recipe.format === 'gif';
  const fg = outputGeometry(p.info, p.maskFrames, transform, { snapToGifRate: isGif });
  const geometry =
    p.recipe.kind === 'composition'
      ? compositionGeometry(fg, p.recipe.template, p.background, transform?.max_width, p.info)
      : fg;
  if (geometry.reverse) {
    const bytes = geometry.frames * geometry.width * geometry.height * 4;
    if (bytes > MAX_REVERSE_BYTES) {
      throw new RenderPlanError(
        `Reverse playback holds every frame in memory and is limited to about ${Math.round(MAX_REVERSE_BYTES / 1024 ** 3)} GB of frames; ` +
          `this output needs ${(bytes / 1024 ** 3).toFixed(1)} GB. Use a shorter clip, a crop or max_width.`,
      );
    }
  }
  const sourceDuration = p.maskFrames / parseRational(p.info.fpsRational);
  const hasAudio = kind.keepsAudio && (p.info.hasAudio || backgroundAudio(p) !== null);
  const promise: OutputPromise = {
    profile: kind.profile,
    codec: kind.codec,
    container: kind.container,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    frames: geometry.frames,
    duration: geometry.duration,
    alpha: kind.alpha,
    inverted: kind.inverted,
    hasAudio,
    loop: kind.loop,
  };
  const inputs = [...safeInputArgs(p.info, p.source, p.maxPixels), ...safeInputArgs({ demuxer: 'matroska' }, p.mask, p.maxPixels)];
  const base = [
    `[0:v]${[...normalizeFilters(p.info), `format=${workingFormat(p.recipe)}`].join(',')}[${SRC}]`,
    `[1:v]${[...normalizeFilters(p.info), 'format=gray'].join(',')}[${MATTE}]`,
  ];
  const audio = hasAudio ? audioGraph(p, sourceDuration, geometry.reverse) : null;
  const common = { kind, promise, geometry };

  if (p.recipe.kind === 'transparent') {
    // Merge first, then transform, so colour and matte are cropped, scaled and retimed together.
    const t = [...cropFilters(fg), ...finishFilters(fg, croppedSize(fg, p.info))];
    // The explicit alpha format stops format negotiation from dropping alpha after a scale.
    const merged = [...base, `[${SRC}][${MATTE}]alphamerge,${[...t, withAlpha(workingFormat(p.recipe))].join(',')}[t]`];
    return { ...common, ...transparentSteps(p, merged, inputs, audio) };
  }

  const composite = opaqueGraph(p, fg, geometry);
  const graph = [...base, ...composite.filters, ...(audio?.filters ?? [])];
  const args = [
    ...inputs,
    ...composite.inputs,
    '-filter_complex',
    graph.join(';'),
    '-map',
    '[v]',
    ...(audio ? ['-map', audio.label] : []),
    ...opaqueEncoderArgs(p.recipe.exportFormat, p.recipe.kind === 'color' ? undefined : p.recipe.crf, Boolean(audio)),
    ...outputArgs(),
    p.output,
  ];
  return { ...common, steps: [args] };
}

export class RenderPlanError extends Error {
  override name = 'RenderPlanError';
}

function outputArgs(): string[] {
  return ['-map_metadata', '-1', '-map_chapters', '-1'];
}

function transparentSteps(
  p: RenderPlanInput,
  merged: string[],
  inputs: string[],
  audio: AudioGraph | null,
): Pick<RenderPlan, 'steps' | 'zip' | 'members'> {
  if (p.recipe.kind !== 'transparent') throw new Error('unreachable');
  const format = p.recipe.format;
  const withAudio = (filters: string[]) => [...filters, ...(audio?.filters ?? [])].join(';');
  const audioMap = audio ? ['-map', audio.label] : [];
  const single = (tail: string[], encoder: string[], keepAudio: boolean): string[] => [
    ...inputs,
    '-filter_complex',
    keepAudio ? withAudio([...merged, ...tail]) : [...merged, ...tail].join(';'),
    '-map',
    '[v]',
    ...(keepAudio ? audioMap : []),
    ...encoder,
    ...outputArgs(),
    p.output,
  ];
  switch (format) {
    case 'webm_vp9':
      return { steps: [single(['[t]format=yuva420p[v]'], encoderArgs.webmVp9(Boolean(audio)), true)] };
    case 'mov_prores':
      return { steps: [single(['[t]format=yuva444p10le[v]'], encoderArgs.movProres(Boolean(audio)), true)] };
    case 'hevc_alpha':
      return { steps: [single(['[t]format=yuva420p[v]'], encoderArgs.hevcAlpha(Boolean(audio)), true)] };
    case 'stacked_video':
    case 'stacked_video_mask_inverted': {
      const neg = format === 'stacked_video_mask_inverted' ? ',negate' : '';
      const tail = [`[t]split[c0][a0]`, `[c0]format=yuv420p[c]`, `[a0]alphaextract${neg},format=yuv420p[a]`, `[c][a]vstack=inputs=2[v]`];
      return { steps: [single(tail, encoderArgs.h264(Boolean(audio), 20), true)] };
    }
    case 'mask_video':
    case 'mask_video_inverted': {
      const neg = format === 'mask_video_inverted' ? ',negate' : '';
      return { steps: [single([`[t]alphaextract${neg},format=yuv420p[v]`], encoderArgs.h264(false, 18), false)] };
    }
    case 'pro_bundle': {
      const color = `${p.workDir}/color.mp4`;
      const alpha = `${p.workDir}/alpha.mp4`;
      const audioFile = audio ? `${p.workDir}/audio.m4a` : null;
      const tail = [`[t]split[c0][a0]`, `[c0]format=yuv420p[c]`, `[a0]alphaextract,format=yuv420p[a]`];
      const args = [
        ...inputs,
        '-filter_complex',
        withAudio([...merged, ...tail]),
        '-map', '[c]', ...encoderArgs.h264(false, 18), ...outputArgs(), color,
        '-map', '[a]', ...encoderArgs.h264(false, 16), ...outputArgs(), alpha,
        ...(audio && audioFile ? ['-map', audio.label, ...encoderArgs.aacOnly(), ...outputArgs(), audioFile] : []),
      ];
      const files = [
        { file: color, name: 'color.mp4' },
        { file: alpha, name: 'alpha.mp4' },
        ...(audioFile ? [{ file: audioFile, name: 'audio.m4a' }] : []),
      ];
      return {
        steps: [args],
        members: { color, alpha, audio: audioFile },
        zip: { files, manifest: { name: 'manifest.json', json: bundleManifest(p, Boolean(audioFile)) } },
      };
    }
    case 'png_sequence': {
      const dir = `${p.workDir}/frames`;
      const args = [
        ...inputs,
        '-filter_complex',
        [...merged, ...clearTransparent('t', 'v', 'rgba')].join(';'),
        '-map', '[v]', '-c:v', 'png', '-compression_level', '3', ...outputArgs(),
        '-f', 'image2', '-start_number', '1', `${dir}/frame_%06d.png`,
      ];
      return { steps: [args], zip: { files: [], directory: dir } };
    }
    case 'webp':
      // libwebp rewrites the colour under fully transparent pixels itself (exact=0), so no clearing here.
      return { steps: [single(['[t]format=bgra[v]'], encoderArgs.webp(), false)] };
    case 'apng':
      return { steps: [single(clearTransparent('t', 'v', 'rgba'), encoderArgs.apng(), false)] };
    case 'gif': {
      // Two passes (palette, then mapping) instead of split: a split would hold every frame in memory.
      const palette = `${p.workDir}/palette.png`;
      const pass1 = [
        ...inputs,
        '-filter_complex',
        [...merged, ...clearTransparent('t', 'k', 'rgba'), '[k]palettegen=max_colors=256:reserve_transparent=1:stats_mode=full[v]'].join(';'),
        '-map', '[v]', '-frames:v', '1', '-update', '1', '-f', 'image2', palette,
      ];
      const pass2 = [
        ...inputs,
        ...safeImageInputArgs('png_pipe', palette),
        '-filter_complex',
        [
          ...merged,
          ...clearTransparent('t', 'k', 'rgba'),
          '[k][2:v]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle:alpha_threshold=128[v]',
        ].join(';'),
        '-map', '[v]', ...encoderArgs.gif(), ...outputArgs(), p.output,
      ];
      return { steps: [pass1, pass2] };
    }
  }
}

/**
 * Zeroes the colour of fully transparent pixels (kept where alpha > 0). Lossless formats then
 * spend nothing on the hidden background: a 720p APNG shrank about 14x in a test.
 */
function clearTransparent(input: string, output: string, pixFmt: string): string[] {
  const id = `${input}_${output}`;
  return [
    `[${input}]format=gbrap,split[${id}x][${id}y]`,
    `[${id}y]alphaextract,split[${id}m][${id}m2]`,
    `[${id}m2]lut=c0='if(gt(val,0),255,0)',format=gbrp[${id}k]`,
    `[${id}x]format=gbrp[${id}c]`,
    `[${id}c][${id}k]blend=all_mode=multiply[${id}cc]`,
    `[${id}cc][${id}m]alphamerge,format=${pixFmt}[${output}]`,
  ];
}

function bundleManifest(p: RenderPlanInput, audio: boolean) {
  const g = outputGeometry(p.info, p.maskFrames, p.recipe.transform);
  return {
    kind: 'keyout.pro_bundle',
    version: 1,
    color: 'color.mp4',
    alpha: 'alpha.mp4',
    audio: audio ? 'audio.m4a' : null,
    alpha_meaning: '255 (white) = opaque subject, 0 (black) = transparent',
    width: g.width,
    height: g.height,
    fps: g.fpsRational,
    frame_count: g.frames,
    duration: Number(g.duration.toFixed(6)),
  };
}

// ── Opaque recipes: colour, composition, blur ───────────────────────────────────────────────

interface Composite {
  inputs: string[];
  filters: string[];
}

function opaqueGraph(p: RenderPlanInput, fg: OutputGeometry, out: OutputGeometry): Composite {
  const recipe = p.recipe;
  const pixFmt = opaquePixFmt(recipe.kind === 'transparent' ? 'mp4' : recipe.exportFormat);
  const work = workingFormat(recipe);
  const ALPHA_FMT = withAlpha(work);
  const blend = work === 'yuv420p' ? 'yuv420' : 'yuv444';
  const cropped = croppedSize(fg, p.info);
  const crop = cropFilters(fg);
  const cropChain = crop.length ? ',' + crop.join(',') : '';
  const merged = `[${SRC}][${MATTE}]alphamerge${cropChain},${ALPHA_FMT}[fg]`;
  const finish = (current: { width: number; height: number }) => {
    const f = [...finishFilters(out, current), `format=${pixFmt}`];
    return f.join(',');
  };
  switch (recipe.kind) {
    case 'color': {
      const c = parseColor(recipe.color);
      const size = `${cropped.width}x${cropped.height}`;
      return {
        inputs: [],
        filters: [
          merged,
          `color=c=${c}:s=${size}:r=${p.info.fpsRational},format=${work}[bg]`,
          `[bg][fg]overlay=shortest=1:format=${blend},${finish(cropped)}[v]`,
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
          `[${subjectBlurred ? 'sharp' : 'blurred'}][fg]overlay=shortest=1:format=${blend},${finish(cropped)}[v]`,
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
            `[2:v]${cover},loop=loop=-1:size=1,setpts=N/(${p.info.fpsRational})/TB,fps=${p.info.fpsRational}[bg]`
          : `[2:v]${[...startFilters(bg.info), `fps=${p.info.fpsRational}`, cover].join(',')}[bg]`;
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
          `[bg][fg]overlay=x=${layout.x}:y=${layout.y}:shortest=1:format=${blend},${finish(canvas)}[v]`,
        ],
      };
    }
    case 'transparent':
      throw new Error('unreachable');
  }
}

function opaquePixFmt(container: ExportContainer): string {
  return container === 'mov' ? 'yuv422p10le' : 'yuv420p';
}

export function safeImageInputArgs(demuxer: ImageDemuxer, file: string): string[] {
  return ['-f', demuxer, '-protocol_whitelist', 'file', '-i', file];
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
    parts.push(`[2:a:0]aresample=48000,volume=${bg.volume},atrim=duration=${d}[a_bg]`);
    labels.push('[a_bg]');
  }
  if (labels.length === 2) {
    parts.push(`${labels.join('')}amix=inputs=2:duration=longest:normalize=0${rev}[aout]`);
  } else {
    parts.push(`${labels[0]}anull${rev}[aout]`);
  }
  return { filters: parts, label: '[aout]' };
}
