import {
  type EncodeBranch,
  type LottiePlan,
  type OutputFormat,
  type StepsContext,
  type ZipPlan,
} from '../formats';
import { clearTransparent, singleImage } from '../formats/codecs';
import { audioGraph, backgroundAudio } from './audio-graph';
import { compositionGeometry } from './composition-template';
import {
  cropFilters,
  croppedSize,
  finishFilters,
  outputGeometry,
  parseRational,
  stickerGeometry,
  type OutputGeometry,
} from './geometry';
import { safeInputArgs } from './input';
import { opaqueGraph } from './opaque-graph';
import type { OutputPromise } from './output-metadata';
import { formatOf, type Recipe } from './recipe';
import {
  MATTE,
  OUTPUT_ARGS,
  PICTURE,
  SRC,
  sourceInputs,
  timeline,
  withAlpha,
  workingFormat,
} from './render-graph';
import { RenderPlanError, type RenderPlanInput, type RenderSource } from './render-input';
import { planSticker, type StickerPlan } from './sticker-plan';
import { thumbnailFrame } from './thumbnails';

/**
 * Pure planning of renders: "original + a mask + a recipe" → the ffmpeg runs that make the file,
 * what to pack into a ZIP, and what the file promises. The graphs come from the modules beside
 * it (render-graph: inputs and timeline; opaque-graph: composites; audio-graph: sound); each
 * format's own encoding comes from its catalogue module (engine/formats).
 * lib/media/render.ts executes the plans.
 */

export type { ImageDemuxer } from './input';
export type { ZipPlan } from '../formats';
// What the builders export that callers read, under the plan's name.
export type { BackgroundInput, FfmpegRunner, RenderPlanInput, RenderSource } from './render-input';
export { RenderPlanError } from './render-input';
export { workingFormat } from './render-graph';
export { blurRadius } from './blur-graph';
export { templateLayout } from './composition-template';
export { parseColor } from './opaque-graph';

export interface RenderPlan {
  format: OutputFormat;
  promise: OutputPromise;
  /** ffmpeg argument lists (without the binary and its global flags), run in order. */
  steps: string[][];
  zip?: ZipPlan;
  /** Bundle members, for validation. */
  members?: { color: string; alpha: string; audio: string | null };
  lottie?: LottiePlan;
  geometry: OutputGeometry;
  /**
   * After the steps: what turns the branch's intermediate into the file (engine/formats
   * FinishKind).
   */
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

/** Size, rate and length of the output a recipe makes from this source. */
function geometryOf(
  p: RenderPlanInput,
  format: OutputFormat,
): { fg: OutputGeometry; out: OutputGeometry } {
  const transform = p.recipe.transform;
  const fg = format.sticker
    ? stickerGeometry(p.info, p.maskFrames, transform, {
        ...format.sticker,
        gifRates: format.sticker.codec.gifRates,
      })
    : outputGeometry(p.info, p.maskFrames, transform, {
        snapToGifRate: format.snapToGifRate ?? false,
      });
  const out =
    p.recipe.kind === 'composition'
      ? compositionGeometry(fg, p.recipe.template, p.background, transform?.max_width, p.info)
      : fg;
  if (out.reverse) {
    const bytes = out.frames * out.width * out.height * 4;
    if (bytes > MAX_REVERSE_BYTES) {
      throw new RenderPlanError(
        'Reverse playback holds every frame in memory and is limited to ' +
          `about ${Math.round(MAX_REVERSE_BYTES / 1024 ** 3)} GB of ` +
          'frames; ' +
          (`this output needs ${(bytes / 1024 ** 3).toFixed(1)} GB. Use a ` +
            'shorter clip, a crop or max_width.'),
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
function picture(
  p: RenderPlanInput,
  fg: OutputGeometry,
  out: OutputGeometry,
  select: string[] = [],
): Picture {
  const working = workingFormat(p.recipe);
  const base = timeline(p, working, select);
  if (p.recipe.kind === 'transparent') {
    const t = [...cropFilters(fg), ...finishFilters(fg, croppedSize(fg, p.info))];
    // The explicit alpha format stops format negotiation from dropping alpha after a scale.
    return {
      inputs: sourceInputs(p),
      filters: [
        ...base,
        `[${SRC}][${MATTE}]alphamerge,${[...t, withAlpha(working)].join(',')}[${PICTURE}]`,
      ],
    };
  }
  const composite = opaqueGraph(p, fg, out);
  return {
    inputs: [...sourceInputs(p), ...composite.inputs],
    filters: [...base, ...composite.filters],
  };
}

/** One ffmpeg output of a branch-encoded format. */
function branchArgs(
  b: EncodeBranch,
  input: string,
  label: string,
  audioLabel: string | null,
  output: string,
) {
  return {
    filters: b.tail(input, label),
    args: [
      '-map',
      `[${label}]`,
      ...(audioLabel ? ['-map', audioLabel] : []),
      ...b.encoder,
      ...OUTPUT_ARGS,
      output,
    ],
  };
}

/**
 * Where a branch with a finish writes its intermediate, and the finish that reads it: the
 * sticker's master and its attempts, or the HEVC-with-alpha encode.
 */
function planFinish(
  p: RenderPlanInput,
  format: OutputFormat,
  out: OutputGeometry,
  promise: OutputPromise,
): { file: string; finish: PlannedFinish } | null {
  if (format.encoding.kind !== 'branch' || !format.encoding.finish) return null;
  if (format.encoding.finish === 'sticker') {
    const master = `${p.workDir}/master.mkv`;
    const masterInput = safeInputArgs({ demuxer: 'matroska' }, master, p.maxPixels);
    const sticker = planSticker({
      format,
      runner: p.runner ?? 'native',
      geometry: out,
      promise,
      master,
      masterInput,
      output: p.output,
      workDir: p.workDir,
      outputArgs: OUTPUT_ARGS,
    });
    return { file: master, finish: { kind: 'sticker', sticker } };
  }
  const intermediate = `${p.workDir}/intermediate.nut`;
  return {
    file: intermediate,
    finish: {
      kind: 'hevc-alpha',
      intermediate,
      output: p.output,
      fpsRational: out.fpsRational,
      hasAudio: promise.hasAudio,
    },
  };
}

export function planRender(p: RenderPlanInput): RenderPlan {
  const format = formatOf(p.recipe);
  const { fg, out } = geometryOf(p, format);
  const sourceDuration = p.maskFrames / parseRational(p.info.fpsRational);
  const hasAudio = format.keepsAudio && (p.info.hasAudio || backgroundAudio(p) !== null);
  const audio = hasAudio ? audioGraph(p, sourceDuration, out.reverse) : null;
  const pic = picture(p, fg, out);
  const opaque = p.recipe.kind === 'blur' || p.recipe.kind === 'composition' ? p.recipe : undefined;
  const ctx = {
    audio: Boolean(audio),
    crf: opaque?.crf,
    preset: opaque?.preset,
    lottie: p.recipe.kind === 'transparent' ? p.recipe.lottie : undefined,
  };
  const promise = promiseOf(format, out, hasAudio);
  const common = { format, promise, geometry: out };
  if (format.encoding.kind === 'branch') {
    const finish = planFinish(p, format, out, promise);
    const branch = branchArgs(
      format.encoding.branch(ctx),
      PICTURE,
      'v',
      audio?.label ?? null,
      finish?.file ?? p.output,
    );
    const graph = [...pic.filters, ...branch.filters, ...(audio?.filters ?? [])];
    return {
      ...common,
      steps: [[...pic.inputs, '-filter_complex', graph.join(';'), ...branch.args]],
      ...(finish ? { finish: finish.finish } : {}),
    };
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
  /**
   * Per output, in order: its plan (promise, geometry, format; `steps` only where it runs on its
   * own).
   */
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
  const plans = b.outputs.map((o) =>
    planRender({ ...b, recipe: o.recipe, output: o.output, workDir: o.workDir }),
  );
  const joined = plans.flatMap((plan, i) =>
    plan.format.encoding.kind === 'branch' ? [{ plan, i }] : [],
  );
  if (joined.length < 2) return { shared: null, plans };
  const working = joined.some(({ plan }) => plan.format.workingFormat === 'yuv444p')
    ? 'yuv444p'
    : 'yuv420p';
  const filters = [
    ...timeline(b, working),
    `[${SRC}][${MATTE}]alphamerge,${withAlpha(working)},` +
      `split=${joined.length}${joined.map((_, k) => `[m${k}]`).join('')}`,
  ];
  const withAudio = joined.filter(({ plan }) => plan.promise.hasAudio);
  if (withAudio.length) {
    const d = (b.maskFrames / parseRational(b.info.fpsRational)).toFixed(6);
    filters.push(
      `[0:a:0]atrim=duration=${d},aresample=48000,` +
        `asplit=${withAudio.length}${withAudio.map((_, k) => `[as${k}]`).join('')}`,
    );
  }
  const args: string[] = [];
  joined.forEach(({ plan, i }, k) => {
    const g = plan.geometry;
    const t = [
      ...cropFilters(g),
      ...finishFilters(g, croppedSize(g, b.info)),
      withAlpha(plan.format.workingFormat),
    ];
    filters.push(`[m${k}]${t.join(',')}[t${k}]`);
    const a = withAudio.findIndex((w) => w.i === i);
    if (a >= 0) filters.push(`[as${a}]${g.reverse ? 'areverse' : 'anull'}[ao${k}]`);
    if (plan.format.encoding.kind !== 'branch') throw new Error('unreachable');
    const file =
      plan.finish?.kind === 'sticker'
        ? plan.finish.sticker.master
        : plan.finish?.kind === 'hevc-alpha'
          ? plan.finish.intermediate
          : b.outputs[i]!.output;
    const branch = branchArgs(
      plan.format.encoding.branch({ audio: a >= 0 }),
      `t${k}`,
      `v${k}`,
      a >= 0 ? `[ao${k}]` : null,
      file,
    );
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
export function planPoster(
  p: RenderPlanInput,
  file: string,
): { args: string[]; width: number; height: number } {
  const format = formatOf(p.recipe);
  const { fg, out } = geometryOf(p, format);
  const still = (g: OutputGeometry): OutputGeometry => ({ ...g, retimed: false, reverse: false });
  const pic = picture(p, still(fg), still(out));
  const frame = thumbnailFrame(p.maskFrames, parseRational(p.info.fpsRational));
  const branch =
    format.encoding.kind === 'branch' && !format.encoding.finish
      ? format.encoding.branch({ audio: false }).tail(PICTURE, 'shown')
      : [`[${PICTURE}]null[shown]`];
  const alpha = ['straight', 'binary', 'separate'].includes(format.alpha);
  const pick = `[shown]select='eq(n\\,${frame})'`;
  // A cut-out's hidden colour is zeroed, as in the lossless formats: the PNG shrinks several times.
  const toPng = alpha
    ? [`${pick}[picked]`, ...clearTransparent('picked', 'poster', 'rgba')]
    : [`${pick},format=rgb24[poster]`];
  const graph = [...pic.filters, ...branch, ...toPng];
  return {
    args: [
      ...pic.inputs,
      '-filter_complex',
      graph.join(';'),
      '-map',
      '[poster]',
      ...singleImage(['-c:v', 'png']),
      file,
    ],
    width: out.width,
    height: format.alpha === 'stacked' ? out.height * 2 : out.height,
  };
}
