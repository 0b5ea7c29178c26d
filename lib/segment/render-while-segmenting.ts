import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatOf, type Recipe } from '../../engine/media/recipe';
import { planRender, type RenderPlanInput } from '../../engine/media/render-plan';
import type { MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { unavailableReason } from '../media/capabilities';
import { estimatedFeed, foregroundDecodeArgs, takesForeground } from '../media/foreground';
import { finishAndValidate, renderPoster, type RenderedOutput } from '../media/render';
import { runEncode, type Feed } from '../media/run-ffmpeg';

/** An output to render while its mask is being made (the job's primary output). */
export interface RenderWhileSegmenting {
  recipe: Recipe;
  outDir: string;
  basename: string;
  poster?: boolean;
  /** false: the output passes the filmed colour of soft edges through (RenderInputs.edgeColour). */
  edgeColour?: boolean;
}

/**
 * The output's render, running while the mask is written: it reads the mask as the mask writer
 * makes it (Matroska), so its decoding and encoding share the job's time with segmentation
 * instead of following it.
 */
export interface StreamedRender {
  /** Where the mask writer sends its Matroska stream. */
  readonly maskIn: Writable;
  /**
   * Once the mask file is whole: the render, validated against that file like any render, with
   * its poster. null when it cannot stand (it was planned for a frame count the mask does not
   * have, or ffmpeg failed): render the output afterwards as usual.
   */
  finish(mask: string, maskFrames: number): Promise<RenderedOutput | null>;
  abort(): void;
}

/**
 * Largest frame rendered beside segmentation. The two add up in memory: at 3840x2160 the VP9
 * render alone holds 1.5 GiB (libvpx's colour and alpha encoders 1.3 GB of it) and segmentation
 * 1.1 GiB, so larger inputs render after, as before, and the job's peak stays the larger of the
 * two instead of their sum.
 */
const MAX_STREAMED_PIXELS = 1920 * 1080;

/** Whether a frame of this size can render while it is segmented (else it renders after). */
export const streamedAt = (info: Pick<MediaInfo, 'width' | 'height'>) =>
  info.width * info.height <= MAX_STREAMED_PIXELS;

/** The mask as an ffmpeg run reads it: its stdin (a socket under Node, so not `/dev/stdin`). */
const MASK_ON_STDIN = 'pipe:0';

/**
 * The run with its mask input allowed the pipe protocol (and only that); null if it reads the mask
 * other than once.
 */
function withMaskOnStdin(step: string[]): string[] | null {
  const at = step.indexOf(MASK_ON_STDIN);
  const whitelist = step.lastIndexOf('-protocol_whitelist', at);
  if (at < 0 || step.indexOf(MASK_ON_STDIN, at + 1) >= 0 || whitelist < 0) return null;
  return step.with(whitelist + 1, 'pipe');
}

/**
 * The run with its decoders, filter graph and encoder on one thread each. Threaded throughout,
 * the render took the cores in the middle of ISNet's two-thread runs, which then waited on
 * their slower thread: service-light's job took 38-45 % longer than rendering after it (4-s
 * 1080p, loaded host); with one thread each, 7 %.
 */
function oneThreadEach(step: string[]): string[] {
  return step.flatMap((arg, i) => {
    if (arg === '-i') return ['-threads', '1', arg];
    // The last argument is the output: the encoder's and the graph's options go before it.
    return i === step.length - 1 ? ['-threads', '1', '-filter_complex_threads', '1', arg] : [arg];
  });
}

/**
 * The render's one run and what its stdin gets: the mask's Matroska stream as it is written,
 * or, for an output that takes the edge colour (lib/media/foreground.ts), the source's frames
 * with their soft edges' colour estimated, decoded with that stream as their alpha, exactly as
 * a render after segmentation feeds them. null when the plan does not read its stdin once.
 */
function streamedRun(
  input: RenderPlanInput,
  step: string[],
  maskIn: PassThrough,
  signal: AbortSignal,
): { args: string[]; feed: Feed } | null {
  if (!input.piped) {
    const args = withMaskOnStdin(step);
    return args && { args: oneThreadEach(args), feed: (stdin) => pipeline(maskIn, stdin) };
  }
  const decode = withMaskOnStdin(
    foregroundDecodeArgs({ ...input, mask: MASK_ON_STDIN }, input.maskFrames),
  );
  const feed = decode && estimatedFeed(oneThreadEach(decode), input.info, { signal, maskIn });
  return feed && { args: oneThreadEach(step), feed };
}

/**
 * Starts rendering `out` from the source and the mask to come, planned for the probed frame
 * count. null when the output is not one ffmpeg run over the two (bundles, stickers, HEVC with
 * alpha, compositions, Lottie) or the frame is larger than 1080p: those render after segmentation.
 */
export async function startStreamedRender(
  source: string,
  info: MediaInfo,
  out: RenderWhileSegmenting,
  signal?: AbortSignal,
): Promise<StreamedRender | null> {
  const format = formatOf(out.recipe);
  if (!streamedAt(info)) return null;
  if (
    out.recipe.kind !== 'transparent' ||
    format.encoding.kind !== 'branch' ||
    (await unavailableReason(format))
  )
    return null;
  await fs.mkdir(out.outDir, { recursive: true });
  const file = path.join(out.outDir, `${out.basename}.${format.extension}`);
  const input: RenderPlanInput = {
    source,
    info,
    mask: MASK_ON_STDIN,
    maskFrames: info.frameCount,
    maxPixels: env().MAX_FRAME_PIXELS,
    recipe: out.recipe,
    output: file,
    workDir: out.outDir,
    piped: out.edgeColour !== false && takesForeground(out.recipe),
  };
  const plan = planRender(input);
  const aborted = new AbortController();
  const maskIn = new PassThrough();
  const step =
    plan.steps.length === 1 && !plan.finish && !plan.zip && !plan.lottie ? plan.steps[0]! : null;
  const streamed = step && streamedRun(input, step, maskIn, aborted.signal);
  if (!streamed) return null;
  const abort = () => {
    signal?.removeEventListener('abort', abort);
    aborted.abort();
  };
  signal?.addEventListener('abort', abort, { once: true });
  // Settles once the render has ended; the mask writer is then let go of (mask-writer.ts), so a
  // render that died does not hold segmentation back.
  const rendered = runEncode(streamed.args, {
    what: `the ${format.id} output`,
    signal: aborted.signal,
    feed: streamed.feed,
  }).then(
    () => null,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );
  void rendered.finally(() => maskIn.destroy());
  const dropped = async (why: string) => {
    console.error(`[segment] the ${format.id} output renders after segmentation instead: ${why}`);
    await fs.rm(file, { force: true });
    return null;
  };
  return {
    maskIn,
    async finish(mask, maskFrames) {
      try {
        if (maskFrames !== info.frameCount) {
          abort();
          await rendered;
          return await dropped(`planned for ${info.frameCount} frames, the mask has ${maskFrames}`);
        }
        const failed = await rendered;
        if (failed) return await dropped(failed.message);
        // The rest of renderOutput (lib/media/render.ts): validation against the mask file, and the
        // poster.
        const whole = { ...input, mask };
        const metadata = await finishAndValidate(plan, file, whole, signal);
        const poster = out.poster
          ? await renderPoster(whole, path.join(out.outDir, `${out.basename}.poster.png`), signal)
          : null;
        return {
          file,
          extension: format.extension,
          contentType: format.contentType,
          metadata,
          poster,
        };
      } catch (e) {
        if (signal?.aborted) throw e;
        return dropped(e instanceof Error ? e.message : String(e));
      } finally {
        signal?.removeEventListener('abort', abort);
      }
    },
    abort,
  };
}
