import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { estimateForeground } from '../../engine/matte/foreground';
import { MATTE, PIPED_FORMAT, SRC, sourceInputs, timeline } from '../../engine/media/render-graph';
import type { RenderSource } from '../../engine/media/render-input';
import { formatOf, type Recipe } from '../../engine/media/recipe';
import { rawFrames } from '../segment/frame-reader';
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
 * The feed of one encode: frames of the source with the estimated edge colour, `frames` of them
 * (all by default). With `only`, just that frame is estimated (a poster needs one; the frames
 * before it only lead up to it).
 */
export function foregroundFeed(
  s: RenderSource & { mask: string },
  opts: { signal?: AbortSignal; frames?: number; only?: number } = {},
): Feed {
  const { width, height } = s.info;
  const plain = { ...s, piped: false };
  const decode = [
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
    String(opts.frames ?? s.maskFrames),
    '-f',
    'rawvideo',
    '-pix_fmt',
    PIPED_FORMAT,
    'pipe:1',
  ];
  return async (stdin) => {
    let n = 0;
    for await (const frame of rawFrames(decode, width * height * 4, 'Cleaning the edge colours', {
      signal: opts.signal,
    })) {
      if (opts.only === undefined || opts.only === n)
        estimateForeground({ data: frame, width, height, layout: 'planar' });
      await write(stdin, frame);
      n++;
    }
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
