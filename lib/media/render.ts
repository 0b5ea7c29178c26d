import fs from 'node:fs/promises';
import path from 'node:path';
import type { OutputMetadata } from '../../engine/media/output-metadata';
import {
  formatOf,
  recipeLabel,
  type BackgroundSource,
  type Recipe,
} from '../../engine/media/recipe';
import {
  planBatch,
  planPoster,
  planRender,
  RenderPlanError,
  type BackgroundInput,
  type RenderPlan,
  type RenderPlanInput,
  type RenderSource,
} from '../../engine/media/render-plan';
import type { MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { FetchError, safeFetchToFile } from '../net/safe-fetch';
import type { Storage } from '../storage';
import { probeBackground } from './background';
import { parseRational } from '../../engine/media/geometry';
import { assertCapability } from './capabilities';
import { MediaError } from './ffmpeg';
import { countFrames, probeFile } from './frames';
import { thumbnailFrame } from '../../engine/media/thumbnails';
import { foregroundFeed, takesForeground } from './foreground';
import { encodeHevcAlpha } from './hevc-alpha';
import { runEncode, type Feed } from './run-ffmpeg';
import { encodeSticker } from './sticker';
import { writeLottie } from './lottie';
import { keepWebpAnimated } from './webp-animation';
import { validateOutput } from './validate';
import { stickerMetadata } from './validate/sticker';
import { writeZip } from './zip';

export type { OutputMetadata } from '../../engine/media/output-metadata';

/** The original and the mask version every render of a job reads. */
export interface RenderInputs {
  source: string;
  info: MediaInfo;
  mask: string;
  signal?: AbortSignal;
  /**
   * false: outputs pass the filmed colour of soft edges through (the model's `edgeColour`);
   * estimated by default.
   */
  edgeColour?: boolean;
  /** The job's storage, where a composition's uploaded background (`{ key }`) is read from. */
  storage?: Storage;
}

export interface RenderedOutput {
  file: string;
  extension: string;
  contentType: string;
  metadata: OutputMetadata;
  /** A PNG still of the output, when asked for. */
  poster: string | null;
}

/**
 * A composition's background as a local file: fetched through the SSRF guard, read from the
 * job's storage (an upload from the dashboard; never through an HTTP fetch of our own signed
 * URL), or the CLI's own file.
 */
async function backgroundFile(
  src: BackgroundSource,
  workDir: string,
  signal: AbortSignal | undefined,
  storage: Storage | undefined,
): Promise<string> {
  if ('file' in src) return src.file;
  if ('key' in src) {
    if (!storage) throw new Error('A stored background needs the job storage to read it from');
    if (!(await storage.stat(src.key)))
      throw new MediaError(
        'The uploaded background image is gone; start the job again with a new one.',
      );
    return storage.localFile(src.key, workDir);
  }
  const file = path.join(workDir, 'background');
  try {
    await safeFetchToFile(src.url, file, { maxBytes: env().MAX_UPLOAD_BYTES, signal });
  } catch (e) {
    // A refused or broken URL will not get better; a timeout or a 503 may (the queue retries).
    if (e instanceof FetchError && !e.transient)
      throw new MediaError(`The composition background could not be fetched: ${e.message}`);
    throw e;
  }
  return file;
}

function plan<T>(make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof RenderPlanError) throw new MediaError(e.message);
    throw e;
  }
}

/**
 * What a step that reads the source gets on its stdin when the source is piped: the colour with
 * the estimated edges, decoded again for each such step (only GIF's two passes read it twice).
 */
function feedOf(
  s: RenderSource & { mask: string },
  signal?: AbortSignal,
): (args: string[]) => Feed | undefined {
  return (args) => (s.piped && args.includes('pipe:0') ? foregroundFeed(s, { signal }) : undefined);
}

async function runSteps(
  p: RenderPlan,
  file: string,
  label: string,
  feed: (args: string[]) => Feed | undefined,
  signal?: AbortSignal,
  onProgress?: (frames: number) => void,
) {
  for (const dir of [p.zip?.directory, p.lottie?.directory])
    if (dir) await fs.mkdir(dir, { recursive: true });
  const last = p.steps.length - 1;
  for (const [i, args] of p.steps.entries()) {
    await runEncode(args, {
      what: `the ${label} output`,
      signal,
      onProgress: i === last ? onProgress : undefined,
      feed: feed(args),
    });
  }
  if (p.zip) await writeZip(file, p.zip);
  if (p.lottie) await writeLottie(file, p.lottie);
}

/**
 * The rest of a render after its ffmpeg steps: a branch's finish (a sticker's adaptive
 * attempts, the HEVC-with-alpha encode), then validation of the file against what it promised.
 */
export async function finishAndValidate(
  p: RenderPlan,
  file: string,
  source: { info: MediaInfo; mask: string; maskFrames: number },
  signal?: AbortSignal,
): Promise<OutputMetadata> {
  if (p.finish?.kind === 'hevc-alpha') await encodeHevcAlpha(p.finish, signal);
  if (p.finish?.kind !== 'sticker') {
    await keepWebpAnimated(file, p.promise);
    return validateOutput({ file, plan: p, mask: source.mask, signal });
  }
  const sticker = await encodeSticker(p, p.finish.sticker, signal);
  const metadata = await validateOutput({ file, plan: sticker.plan, mask: source.mask, signal });
  return stickerMetadata(
    p.format,
    sticker.plan,
    metadata,
    sticker.attempts,
    source.maskFrames / parseRational(source.info.fpsRational),
  );
}

export async function renderPoster(
  input: RenderPlanInput & { mask: string },
  file: string,
  signal?: AbortSignal,
): Promise<string> {
  const poster = planPoster(input, file);
  // The poster shows one frame: only that one is estimated, and the feed stops after it.
  const shown = thumbnailFrame(input.maskFrames, parseRational(input.info.fpsRational));
  const feed = input.piped
    ? foregroundFeed(input, { signal, frames: shown + 1, only: shown })
    : undefined;
  await runEncode(poster.args, { what: 'the poster', signal, feed });
  const v = (await probeFile(file, 'png_pipe', signal)).video;
  if (v?.codec !== 'png' || v.width !== poster.width || v.height !== poster.height) {
    throw new MediaError(
      'The poster failed validation: ' +
        `${v ? `${v.codec} ${v.width}x${v.height}` : 'no picture'}, ` +
        `expected a ${poster.width}x${poster.height} PNG.`,
    );
  }
  return file;
}

/**
 * Renders "original + mask + recipe" into outDir and validates the file before returning it.
 * Throws MediaError with a user-facing reason; nothing that fails validation is left behind.
 */
export async function renderOutput(
  opts: RenderInputs & {
    recipe: Recipe;
    outDir: string;
    basename?: string;
    poster?: boolean;
    onProgress?: (framesDone: number) => void;
  },
): Promise<RenderedOutput> {
  const { recipe, signal } = opts;
  const format = formatOf(recipe);
  await assertCapability(format);
  const label = recipeLabel(recipe);
  const maskFrames = await countFrames(opts.mask, 'matroska', signal);
  await fs.mkdir(opts.outDir, { recursive: true });
  const file = path.join(opts.outDir, `${opts.basename ?? label}.${format.extension}`);
  const posterFile = path.join(opts.outDir, `${opts.basename ?? label}.poster.png`);
  const workDir = await fs.mkdtemp(path.join(opts.outDir, `.${label}-work-`));
  try {
    let background: BackgroundInput | undefined;
    if (recipe.kind === 'composition')
      background = await probeBackground(
        await backgroundFile(recipe.background, workDir, signal, opts.storage),
        signal,
      );
    const input = {
      ...opts,
      recipe,
      maskFrames,
      maxPixels: env().MAX_FRAME_PIXELS,
      background,
      output: file,
      workDir,
      piped: opts.edgeColour !== false && takesForeground(recipe),
    };
    const p = plan(() => planRender(input));
    await runSteps(p, file, label, feedOf(input, signal), signal, opts.onProgress);
    const metadata = await finishAndValidate(p, file, { ...input, mask: opts.mask }, signal);
    const poster = opts.poster ? await renderPoster(input, posterFile, signal) : null;
    return { file, extension: format.extension, contentType: format.contentType, metadata, poster };
  } catch (e) {
    await Promise.all([fs.rm(file, { force: true }), fs.rm(posterFile, { force: true })]);
    throw e;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

export type BatchResult = { ok: true; output: RenderedOutput } | { ok: false; error: unknown };

/**
 * Renders several transparent outputs of one original and mask, decoding them once for every
 * output a single ffmpeg branch can encode (engine/media/render-plan.ts `planBatch`); the rest
 * run on their own. Each output is validated and gets its poster; one failing does not fail
 * the others. Results come back in the order asked.
 */
export async function renderBatch(
  opts: RenderInputs & {
    outputs: { recipe: Recipe & { kind: 'transparent' }; basename: string }[];
    outDir: string;
  },
): Promise<BatchResult[]> {
  const { signal } = opts;
  const maskFrames = await countFrames(opts.mask, 'matroska', signal);
  await fs.mkdir(opts.outDir, { recursive: true });
  const workRoot = await fs.mkdtemp(path.join(opts.outDir, '.batch-work-'));
  const results: (BatchResult | undefined)[] = [];
  try {
    const outputs: { recipe: Recipe & { kind: 'transparent' }; output: string; workDir: string }[] =
      [];
    for (const [i, o] of opts.outputs.entries()) {
      const workDir = path.join(workRoot, String(i));
      await fs.mkdir(workDir);
      outputs.push({
        recipe: o.recipe,
        output: path.join(opts.outDir, `${o.basename}.${formatOf(o.recipe).extension}`),
        workDir,
      });
    }
    // One piped source for all: a mask video from it is the same matte.
    const source = {
      ...opts,
      maskFrames,
      maxPixels: env().MAX_FRAME_PIXELS,
      piped: opts.edgeColour !== false && opts.outputs.some((o) => takesForeground(o.recipe)),
    };
    const feed = feedOf(source, signal);
    const usable: number[] = [];
    for (const [i, o] of outputs.entries()) {
      try {
        await assertCapability(formatOf(o.recipe));
        usable.push(i);
      } catch (error) {
        results[i] = { ok: false, error };
      }
    }
    const batch = plan(() => planBatch({ ...source, outputs: usable.map((i) => outputs[i]!) }));
    let shared: Error | null = null;
    if (batch.shared) {
      shared = await runEncode(batch.shared, {
        what: 'the batch outputs',
        signal,
        feed: feed(batch.shared),
      }).then(
        () => null,
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      );
    }
    for (const [k, p] of batch.plans.entries()) {
      const i = usable[k]!;
      const o = outputs[i]!;
      try {
        if (p.steps.length) await runSteps(p, o.output, o.recipe.format, feed, signal);
        else if (shared) throw shared;
        const metadata = await finishAndValidate(p, o.output, source, signal);
        const input = { ...source, recipe: o.recipe, output: o.output, workDir: o.workDir };
        const poster = await renderPoster(
          input,
          path.join(opts.outDir, `${opts.outputs[i]!.basename}.poster.png`),
          signal,
        );
        results[i] = {
          ok: true,
          output: {
            file: o.output,
            extension: p.format.extension,
            contentType: p.format.contentType,
            metadata,
            poster,
          },
        };
      } catch (error) {
        await fs.rm(o.output, { force: true });
        if (signal?.aborted) throw error;
        results[i] = { ok: false, error };
      }
    }
    return results.map((r) => r!);
  } finally {
    await fs.rm(workRoot, { recursive: true, force: true });
  }
}
