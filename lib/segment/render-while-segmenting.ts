import fs from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { formatOf, type Recipe } from '../../engine/media/recipe';
import { planPoster, planRender, type RenderPlan, type RenderPlanInput } from '../../engine/media/render-plan';
import type { MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { unavailableReason } from '../media/capabilities';
import { MediaError, spawnFfmpeg } from '../media/ffmpeg';
import { takesForeground } from '../media/foreground';
import { probeFile } from '../media/frames';
import type { RenderedOutput } from '../media/render';
import { runEncode } from '../media/run-ffmpeg';
import { validateOutput } from '../media/validate';
import { keepWebpAnimated } from '../media/webp-animation';

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
 * makes it (Matroska on its stdin), so its decoding and encoding share the job's time with
 * segmentation instead of following it.
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
 * render alone holds 2.2 GiB and the FFV1 mask writer 1.3 GiB (FFmpeg 5.1), so larger inputs
 * render after, as before, and the job's peak stays the larger of the two instead of their sum.
 */
const MAX_STREAMED_PIXELS = 1920 * 1080;

/** The mask as the render reads it: its stdin (a socket under Node, so not `/dev/stdin`). */
const MASK_ON_STDIN = 'pipe:0';

/** The plan's one run with its mask input allowed the pipe protocol (and only that); null if the plan reads the mask other than once. */
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
    // The last argument is the output file: the encoder's and the graph's options go before it.
    return i === step.length - 1 ? ['-threads', '1', '-filter_complex_threads', '1', arg] : [arg];
  });
}

/**
 * Starts rendering `out` from the source and the mask to come, planned for the probed frame
 * count. null when the output is not one ffmpeg run over the two (bundles, stickers, HEVC with
 * alpha, compositions, Lottie) or the frame is larger than 1080p: those render after segmentation.
 */
export async function startStreamedRender(source: string, info: MediaInfo, out: RenderWhileSegmenting, signal?: AbortSignal): Promise<StreamedRender | null> {
  const format = formatOf(out.recipe);
  if (info.width * info.height > MAX_STREAMED_PIXELS) return null;
  if (out.recipe.kind !== 'transparent' || format.encoding.kind !== 'branch' || (await unavailableReason(format))) return null;
  // The edge colour is estimated from the whole frame and its mask (lib/media/foreground.ts): such outputs render after.
  if (out.edgeColour !== false && takesForeground(out.recipe)) return null;
  await fs.mkdir(out.outDir, { recursive: true });
  const file = path.join(out.outDir, `${out.basename}.${format.extension}`);
  const input: RenderPlanInput = { source, info, mask: MASK_ON_STDIN, maskFrames: info.frameCount, maxPixels: env().MAX_FRAME_PIXELS, recipe: out.recipe, output: file, workDir: out.outDir };
  const plan = planRender(input);
  const step = plan.steps.length === 1 && !plan.finish && !plan.zip && !plan.lottie ? withMaskOnStdin(plan.steps[0]!) : null;
  if (!step) return null;
  const child = spawnFfmpeg(['-loglevel', 'error', '-nostats', ...oneThreadEach(step)]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-16_384);
  });
  // A render that dies leaves the mask writer running: its stream is then dropped (mask-writer.ts).
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const abort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', abort, { once: true });
  const dropped = async (why: string) => {
    console.error(`[segment] the ${format.id} output renders after segmentation instead: ${why}`);
    await fs.rm(file, { force: true });
    return null;
  };
  return {
    maskIn: child.stdin,
    async finish(mask, maskFrames) {
      try {
        if (maskFrames !== info.frameCount) {
          abort();
          return await dropped(`planned for ${info.frameCount} frames, the mask has ${maskFrames}`);
        }
        const code = await exited;
        if (code !== 0) return await dropped(stderr.trim() || `ffmpeg exited with ${code}`);
        return await validated({ ...input, mask }, plan, out, signal);
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

/** The rest of renderOutput (lib/media/render.ts) for a one-run transparent output: validation and the poster. */
async function validated(input: RenderPlanInput & { mask: string }, plan: RenderPlan, out: RenderWhileSegmenting, signal?: AbortSignal): Promise<RenderedOutput> {
  await keepWebpAnimated(input.output, plan.promise);
  const metadata = await validateOutput({ file: input.output, plan, mask: input.mask, signal });
  let poster: string | null = null;
  if (out.poster) {
    poster = path.join(out.outDir, `${out.basename}.poster.png`);
    const p = planPoster(input, poster);
    await runEncode(p.args, { what: 'the poster', signal });
    const v = (await probeFile(poster, 'png_pipe', signal)).video;
    if (v?.codec !== 'png' || v.width !== p.width || v.height !== p.height) throw new MediaError('The poster failed validation.');
  }
  return { file: input.output, extension: plan.format.extension, contentType: plan.format.contentType, metadata, poster };
}
