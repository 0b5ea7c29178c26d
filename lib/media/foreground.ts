import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { MATTE, PIPED_FORMAT, SRC, sourceInputs, timeline } from '../../engine/media/render-graph';
import type { RenderSource } from '../../engine/media/render-input';
import { formatOf, type Recipe } from '../../engine/media/recipe';
import { rawFrames } from './raw-frames';
import { estimateOnThread } from './foreground-estimator';
import type { Feed } from './run-ffmpeg';

/**
 * The colour every render lays over something new, with the old background taken out of its
 * soft edges (engine/matte/foreground.ts), streamed: one ffmpeg decodes the source and its mask
 * onto the shared timeline as planar Y′CbCr with alpha, each frame's soft band gets the
 * subject's estimated colour, and the frames go straight into the render's own ffmpeg on its
 * stdin (`RenderSource.piped`). Nothing is written in between, so the added cost is the decode
 * to raw frames and the estimate in the band. Y′CbCr rather than RGB: blur fusion is
 * affine-invariant, and the colour never leaves the source's own matrix and range.
 */

/**
 * Whether a recipe's output shows the colour over a new background: every transparent format
 * and composition, and blur with a sharp subject. Not the mask video (alpha alone), and not a
 * blurred subject over its own sharp frame (the old background is still there around it).
 */
export function takesForeground(recipe: Recipe): boolean {
  if (recipe.kind === 'blur') return recipe.blur.mode !== 'subject';
  return formatOf(recipe).alpha !== 'matte';
}

/**
 * The ffmpeg arguments that decode the source and its mask onto the timeline as raw
 * `PIPED_FORMAT` frames with the matte as alpha, `frames` of them, to stdout.
 */
export function foregroundDecodeArgs(s: RenderSource & { mask: string }, frames: number): string[] {
  const plain = { ...s, piped: false };
  return [
    '-v',
    'error',
    ...sourceInputs(plain),
    '-filter_complex',
    [...timeline(plain, 'yuv444p'), `[${SRC}][${MATTE}]alphamerge,format=${PIPED_FORMAT}[fa]`].join(
      ';',
    ),
    '-map',
    '[fa]',
    '-frames:v',
    String(frames),
    '-f',
    'rawvideo',
    '-pix_fmt',
    PIPED_FORMAT,
    'pipe:1',
  ];
}

/**
 * Frames estimated on the edge-colour thread while the next ones decode and the ones before
 * are written: this many at once at most (memory stays a few frames whatever the length).
 */
const FRAMES_OUT = 2;

/**
 * The feed of one encode: frames of the source with the estimated edge colour, `frames` of them
 * (all by default). With `only`, just that frame is estimated (a poster needs one; the frames
 * before it only lead up to it).
 */
export function foregroundFeed(
  s: RenderSource & { mask: string },
  opts: { signal?: AbortSignal; frames?: number; only?: number } = {},
): Feed {
  return estimatedFeed(foregroundDecodeArgs(s, opts.frames ?? s.maskFrames), s.info, opts);
}

/**
 * The feed of the frames `decode` (foregroundDecodeArgs, adapted by the caller) writes, each
 * estimated on the way, in order. `maskIn`: what the decoder reads on its stdin (a mask as it is
 * being written: lib/segment/render-while-segmenting.ts).
 */
export function estimatedFeed(
  decode: string[],
  size: { width: number; height: number },
  opts: { signal?: AbortSignal; only?: number; maskIn?: Readable },
): Feed {
  const { width, height } = size;
  return async (stdin) => {
    const out: Promise<Uint8Array>[] = [];
    let n = 0;
    const frames = rawFrames(decode, width * height * 4, 'Cleaning the edge colours', {
      signal: opts.signal,
      stdin: opts.maskIn,
    });
    for await (const frame of frames) {
      // The reader's view is reused for the next frame: what is kept is a copy.
      out.push(
        opts.only === undefined || opts.only === n
          ? estimateOnThread(frame.slice(), width, height)
          : Promise.resolve(frame.slice()),
      );
      n++;
      if (out.length >= FRAMES_OUT) await write(stdin, await out.shift()!);
    }
    for (const frame of out) await write(stdin, await frame);
  };
}

/** Writes with back-pressure; fails once the reader is gone. */
async function write(w: Writable, data: Uint8Array): Promise<void> {
  if (w.destroyed || w.writableEnded)
    throw Object.assign(new Error('The encode closed its input.'), { code: 'INPUT_CLOSED' });
  if (w.write(data)) return;
  const ac = new AbortController();
  try {
    await Promise.race([
      once(w, 'drain', { signal: ac.signal }),
      once(w, 'close', { signal: ac.signal }).then(() => {
        throw Object.assign(new Error('The encode closed its input.'), { code: 'INPUT_CLOSED' });
      }),
    ]);
  } finally {
    ac.abort();
  }
}
