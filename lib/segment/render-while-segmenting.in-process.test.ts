import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../engine/media/types';
import { fromLavfi, H264 } from '../media/fixtures';
import { probeVideo } from '../media/probe';
import { renderOutput, type RenderedOutput } from '../media/render';
import { fadeMask } from '../../tests/support/fade-mask';
import { allFrames, vp9WithAlpha } from '../../tests/support/frames';
import { tempDir } from '../../tests/support/temp-dir';
import { readMaskFrames } from './frame-reader';
import { openMaskWriter } from './mask-writer';
import { startStreamedRender } from './render-while-segmenting';

/**
 * The primary output rendered while segmenting is the output rendered after it: the mask is
 * written frame by frame through the mask writer, as segmentation writes it, and the two files
 * are decoded and compared. The clip's mask has a soft band (a 10-column fade), where the edge
 * colour estimate changes the colour, and the subject moves so no frame repeats.
 */
const tmp = tempDir('streamed');

const W = 256;
const H = 144;
const BAND = { x0: 118, x1: 138 };
const recipe = { kind: 'transparent', format: 'webm_vp9' } as const;
let source: string;
let mask: string;
let info: MediaInfo;

beforeAll(async () => {
  source = path.join(tmp, 'clip.mp4');
  mask = path.join(tmp, 'mask.mkv');
  await fadeMask(mask, { width: W, height: H, seconds: 2, from: 123, to: 133 });
  await fromLavfi(
    source,
    [`testsrc2=s=${W}x${H}:r=25:d=2`, 'sine=frequency=440:duration=2'],
    [...H264, '-c:a', 'aac', '-shortest'],
  );
  info = await probeVideo(source);
}, 120_000);

/** The output rendered while `mask` is written to the mask writer frame by frame. */
async function renderedWhileWriting(
  edgeColour: boolean,
  name: string,
): Promise<RenderedOutput | null> {
  const outDir = path.join(tmp, name);
  const streamed = await startStreamedRender(source, info, {
    recipe,
    outDir,
    basename: 'output',
    poster: true,
    edgeColour,
  });
  expect(streamed).not.toBeNull();
  const written = path.join(tmp, `${name}-mask.mkv`);
  const writer = openMaskWriter(info, written, streamed!.maskIn);
  let frames = 0;
  for await (const frame of readMaskFrames(mask, info)) {
    await writer.write(frame.slice());
    frames++;
  }
  await writer.finish();
  return streamed!.finish(written, frames);
}

/** Every frame of a VP9-with-alpha file as planar yuva420p. */
function decoded(file: string): Promise<Buffer> {
  return allFrames(vp9WithAlpha(file), 'yuva420p');
}

/**
 * Over all frames: the mean absolute difference of the luma in the soft band and its mean
 * (signed: the encoder's noise averages out, a change of colour does not), and the mean
 * absolute difference of the alpha everywhere.
 */
function difference(a: Buffer, b: Buffer): { bandLuma: number; bandShift: number; alpha: number } {
  expect(a.length).toBe(b.length);
  const frame = (W * H * 5) / 2;
  const chroma = (W / 2) * (H / 2);
  let luma = 0;
  let shift = 0;
  let lumaN = 0;
  let alpha = 0;
  for (let f = 0; f * frame < a.length; f++) {
    const at = f * frame;
    for (let y = 0; y < H; y++)
      for (let x = BAND.x0; x < BAND.x1; x++) {
        luma += Math.abs(a[at + y * W + x]! - b[at + y * W + x]!);
        shift += a[at + y * W + x]! - b[at + y * W + x]!;
        lumaN++;
      }
    const alphaAt = at + W * H + 2 * chroma;
    for (let i = 0; i < W * H; i++) alpha += Math.abs(a[alphaAt + i]! - b[alphaAt + i]!);
  }
  return {
    bandLuma: luma / lumaN,
    bandShift: Math.abs(shift / lumaN),
    alpha: alpha / ((a.length / frame) * W * H),
  };
}

describe('rendering while segmenting', () => {
  it('gives the render after segmentation, its edge colour estimated', async () => {
    const during = await renderedWhileWriting(true, 'during');
    expect(during?.metadata).toMatchObject({
      validated: true,
      frame_count: info.frameCount,
      has_alpha: true,
    });
    expect(fs.existsSync(during!.poster!)).toBe(true);
    const after = await renderOutput({
      source,
      info,
      mask,
      recipe,
      outDir: path.join(tmp, 'after'),
      basename: 'output',
      edgeColour: true,
    });
    const filmed = await renderOutput({
      source,
      info,
      mask,
      recipe,
      outDir: path.join(tmp, 'filmed'),
      basename: 'output',
      edgeColour: false,
    });
    const [d, a, f] = await Promise.all([
      decoded(during!.file),
      decoded(after.file),
      decoded(filmed.file),
    ]);
    const same = difference(d, a);
    // The same frames went into both encodes (with one encoder thread against several the
    // bitstreams differ by the encoder's noise: bit-equal with the same threads); the estimate
    // moves the band's colour by far more than that.
    expect(same.bandShift).toBeLessThan(0.5);
    expect(same.bandLuma).toBeLessThan(1.5);
    expect(same.alpha).toBeLessThan(0.5);
    expect(difference(f, a).bandShift).toBeGreaterThan(1.5);
  });

  it('gives the render after segmentation where the filmed edge colour is kept', async () => {
    const during = await renderedWhileWriting(false, 'during-filmed');
    const after = await renderOutput({
      source,
      info,
      mask,
      recipe,
      outDir: path.join(tmp, 'after-filmed'),
      basename: 'output',
      edgeColour: false,
    });
    const same = difference(await decoded(during!.file), await decoded(after.file));
    expect(same.bandShift).toBeLessThan(0.5);
    expect(same.bandLuma).toBeLessThan(1.5);
    expect(same.alpha).toBeLessThan(0.5);
  });
});
