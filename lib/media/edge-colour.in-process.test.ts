import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Recipe, TransparentFormat } from '../../engine/media/recipe';
import type { MediaInfo } from '../../engine/media/types';
import { ffmpeg } from './ffmpeg';
import { probeVideo } from './probe';
import { canEncodeHevcAlpha } from './capabilities';
import { renderBatch, renderOutput } from './render';
import { fadeMask } from '../../tests/support/fade-mask';
import { rawFrame, vp9WithAlpha } from '../../tests/support/frames';
import { tempDir } from '../../tests/support/temp-dir';
import { fromLavfi } from './fixtures';

/**
 * A soft edge's colour as each output family writes it, read back from the encoded file. The
 * clip: a blue subject whose edge fades into magenta over 10 columns, with that fade as its mask,
 * and a box moving far off in the background. Filmed, the edge is blue mixed with magenta; every
 * output that lays the colour over something new carries the subject's own blue there instead
 * (lib/media/foreground.ts), straight (not premultiplied: until these tests, the PNG and APNG
 * masters multiplied two of the three colour planes by alpha), and the mask videos keep the
 * alpha alone.
 */
const run = promisify(execFile);
const tmp = tempDir('edge-colour');

const W = 256;
const H = 144;
const SUBJECT = [40, 90, 200] as const;
const OLD_BG = [255, 0, 255] as const;
/** The fade: alpha 1 left of EDGE0, 0 right of EDGE1. */
const EDGE0 = 123;
const EDGE1 = 133;
const alphaAt = (x: number) => Math.min(1, Math.max(0, (EDGE1 - (x + 0.5)) / (EDGE1 - EDGE0)));
const hex = (c: readonly number[]) => c.map((v) => v.toString(16).padStart(2, '0')).join('');
/** What the camera recorded at column x: the subject mixed with the old background. */
const filmed = (x: number) => SUBJECT.map((f, c) => alphaAt(x) * f + (1 - alphaAt(x)) * OLD_BG[c]!);

let source: string;
let mask: string;
let background: string;
const GREEN = [0, 200, 0] as const;
let info: MediaInfo;

beforeAll(async () => {
  source = path.join(tmp, 'clip.mp4');
  mask = path.join(tmp, 'mask.mkv');
  await fadeMask(mask, { width: W, height: H, seconds: 1, from: EDGE0, to: EDGE1 });
  await ffmpeg([
    '-v',
    'error',
    // A box moving in the background, far from the edge: frames differ, so no encoder merges them.
    '-f',
    'lavfi',
    '-i',
    `color=0x${hex(OLD_BG)}:s=${W}x${H}:r=25:d=1,` +
      "drawbox=x=224:y='t*100':w=16:h=16:color=yellow:t=fill",
    '-f',
    'lavfi',
    '-i',
    `color=0x${hex(SUBJECT)}:s=${W}x${H}:r=25:d=1`,
    '-f',
    'matroska',
    '-i',
    mask,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-filter_complex',
    '[1:v][2:v]alphamerge[fg];[0:v][fg]overlay=format=rgb,format=yuv444p[v]',
    '-map',
    '[v]',
    '-map',
    '3:a',
    '-c:v',
    'libx264',
    '-qp',
    '0',
    '-c:a',
    'aac',
    '-shortest',
    source,
  ]);
  background = path.join(tmp, 'green.png');
  await fromLavfi(background, `color=0x${hex(GREEN)}:s=${W}x${H}`, ['-frames:v', '1']);
  info = await probeVideo(source);
}, 120_000);

/**
 * Frame n (the middle one unless said) of a file as RGBA, checked to be W x H unless said (null:
 * any size).
 */
async function rgbaFrame(
  input: string[],
  n = 12,
  size: { w: number; h: number } | null = { w: W, h: H },
): Promise<Buffer> {
  const frame = await rawFrame(input, n, 'rgba');
  if (size) expect(frame.length).toBe(size.w * size.h * 4);
  return frame;
}

/**
 * The tolerance, in 8-bit levels per channel: the lossy codecs' error on a 10-pixel fade. Filmed,
 * the edge is about 47 away.
 */
const TOLERANCE = 12;

const meanError = (pairs: [number, number][]) => {
  expect(pairs.length).toBeGreaterThan(0);
  return pairs.reduce((s, [a, b]) => s + Math.abs(a - b), 0) / pairs.length;
};

/**
 * A cut-out's soft pixels, found by their own alpha (0.25..0.75), against the subject's colour:
 * geometry-free, so a sticker's canvas or a transform does not matter.
 */
function softColourError(rgba: Buffer): number {
  const pairs: [number, number][] = [];
  for (let p = 0; p < rgba.length / 4; p++) {
    const a = rgba[p * 4 + 3]!;
    if (a < 64 || a > 191) continue;
    for (let c = 0; c < 3; c++) pairs.push([rgba[p * 4 + c]!, SUBJECT[c]!]);
  }
  return meanError(pairs);
}

/**
 * An opaque frame at the source's geometry against `expected(x, channel)` over the fade's soft
 * columns.
 */
function columnError(rgba: Buffer, expected: (x: number, c: number) => number, rows = H): number {
  const pairs: [number, number][] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < W; x++) {
      if (alphaAt(x) < 0.25 || alphaAt(x) > 0.75) continue;
      for (let c = 0; c < 3; c++) pairs.push([rgba[(y * W + x) * 4 + c]!, expected(x, c)]);
    }
  }
  return meanError(pairs);
}

const render = (recipe: Recipe, name: string) =>
  renderOutput({ source, info, mask, recipe, outDir: path.join(tmp, name) });

async function unzipped(file: string, name: string): Promise<string> {
  const dir = path.join(tmp, `${name}-x`);
  await run('unzip', ['-o', '-q', file, '-d', dir]);
  return dir;
}

describe("soft edges carry the subject's colour", () => {
  const cutOuts: [TransparentFormat, (file: string) => Promise<Buffer>][] = [
    ['webm_vp9', (file) => rgbaFrame(vp9WithAlpha(file))],
    ['mov_prores', (file) => rgbaFrame(['-i', file])],
    ['apng', (file) => rgbaFrame(['-f', 'apng', '-i', file])],
    [
      'webp',
      async (file) => {
        // FFmpeg 5.1 cannot demux animated WebP: webpmux takes the first frame (the whole canvas;
        // later ones may be only what changed) out as a still.
        const still = path.join(tmp, 'frame.webp');
        await run('webpmux', ['-get', 'frame', '1', file, '-o', still]);
        return rgbaFrame(['-i', still], 0, null);
      },
    ],
    [
      'png_sequence',
      async (file) => {
        const dir = await unzipped(file, 'pngs');
        const pngs = fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.png'))
          .sort();
        return rgbaFrame(['-i', path.join(dir, pngs[12]!)], 0);
      },
    ],
  ];
  for (const [format, read] of cutOuts) {
    it(`${format}: straight colour with alpha`, async () => {
      const out = await render({ kind: 'transparent', format }, format);
      expect(softColourError(await read(out.file))).toBeLessThan(TOLERANCE);
    });
  }

  it('hevc_alpha, where this ffmpeg encodes it', async (ctx) => {
    if (!(await canEncodeHevcAlpha())) ctx.skip();
    const out = await render({ kind: 'transparent', format: 'hevc_alpha' }, 'hevc');
    // FFmpeg 5.1 decodes its colour layer only.
    expect(columnError(await rgbaFrame(['-i', out.file]), (_x, c) => SUBJECT[c]!)).toBeLessThan(
      TOLERANCE,
    );
  });

  it('gif: the pixels its one-bit alpha keeps in the fade are the subject', async () => {
    const out = await render({ kind: 'transparent', format: 'gif' }, 'gif');
    const rgba = await rgbaFrame(['-i', out.file]);
    const kept = Buffer.from(
      rgba.map((v, i) => (i % 4 === 3 ? (v === 255 && alphaAt((i >> 2) % W) < 0.9 ? 128 : 0) : v)),
    );
    expect(softColourError(kept)).toBeLessThan(TOLERANCE);
  });

  it('a sticker (telegram_video_v1: VP9 with alpha on its square canvas)', async () => {
    const out = await render({ kind: 'transparent', format: 'telegram_video_v1' }, 'sticker');
    expect(softColourError(await rgbaFrame(vp9WithAlpha(out.file), 12, null))).toBeLessThan(
      TOLERANCE,
    );
  });

  it("the pro bundle's colour member", async () => {
    const out = await render({ kind: 'transparent', format: 'pro_bundle' }, 'bundle');
    const dir = await unzipped(out.file, 'bundle');
    expect(
      columnError(await rgbaFrame(['-i', path.join(dir, 'color.mp4')]), (_x, c) => SUBJECT[c]!),
    ).toBeLessThan(TOLERANCE);
  });

  it("the stacked video's colour half", async () => {
    const out = await render({ kind: 'transparent', format: 'stacked_video' }, 'stacked');
    expect(
      columnError(
        await rgbaFrame(['-i', out.file], 12, { w: W, h: 2 * H }),
        (_x, c) => SUBJECT[c]!,
      ),
    ).toBeLessThan(TOLERANCE);
  });

  it('a model without edgeColour (service-human) passes the filmed colour through', async () => {
    const out = await renderOutput({
      source,
      info,
      mask,
      recipe: { kind: 'transparent', format: 'webm_vp9' },
      outDir: path.join(tmp, 'filmed'),
      edgeColour: false,
    });
    expect(softColourError(await rgbaFrame(vp9WithAlpha(out.file)))).toBeGreaterThan(3 * TOLERANCE);
  });

  it('a mask video is the alpha alone, as before', async () => {
    const out = await render({ kind: 'transparent', format: 'mask_video' }, 'mask');
    const frame = await rgbaFrame(['-i', out.file]);
    // Grey (no colour of either side), falling across the fade as the alpha does.
    const row = [...Array(W).keys()].map((x) =>
      frame.subarray((72 * W + x) * 4, (72 * W + x) * 4 + 3),
    );
    for (const px of row) expect(Math.max(...px) - Math.min(...px)).toBeLessThanOrEqual(2);
    expect(
      row.slice(EDGE0 - 2, EDGE1 + 2).every((px, i, all) => i === 0 || px[0]! <= all[i - 1]![0]!),
    ).toBe(true);
    expect([row[EDGE0 - 4]![0], row[EDGE1 + 4]![0]]).toEqual([255, 0]);
  });

  it('a composition on a colour: the subject over the new colour, no magenta', async () => {
    const out = await render(
      { kind: 'color', color: `#${hex(GREEN)}`, exportFormat: 'mp4' },
      'color',
    );
    const expected = (x: number, c: number) =>
      alphaAt(x) * SUBJECT[c]! + (1 - alphaAt(x)) * GREEN[c]!;
    expect(columnError(await rgbaFrame(['-i', out.file]), expected)).toBeLessThan(TOLERANCE);
  });

  it('a composition on an image, the sound kept', async () => {
    const recipe: Recipe = {
      kind: 'composition',
      background: { file: background },
      template: 'full',
      backgroundAudio: false,
      backgroundAudioVolume: 1,
      exportFormat: 'mp4',
    };
    const out = await render(recipe, 'composition');
    const expected = (x: number, c: number) =>
      alphaAt(x) * SUBJECT[c]! + (1 - alphaAt(x)) * GREEN[c]!;
    expect(columnError(await rgbaFrame(['-i', out.file]), expected)).toBeLessThan(TOLERANCE);
    expect(out.metadata).toMatchObject({ has_audio: true });
  });

  // Over its own old background, blurred, the subject mixed back with it is about the filmed
  // colour; the filmed colour laid over it again (a rim) is twice as far towards magenta.
  it('blur behind the subject: the subject over its own blurred background, no rim', async () => {
    const out = await render(
      {
        kind: 'blur',
        blur: { mode: 'background', type: 'gaussian', intensity: 50 },
        exportFormat: 'mp4',
      },
      'blur',
    );
    const frame = await rgbaFrame(['-i', out.file]);
    const rim = (x: number, c: number) =>
      alphaAt(x) * filmed(x)[c]! + (1 - alphaAt(x)) * OLD_BG[c]!;
    expect(columnError(frame, (x, c) => filmed(x)[c]!)).toBeLessThan(columnError(frame, rim) / 2);
  });

  it('a batch of cut-outs decoded once', async () => {
    const outputs = (['webm_vp9', 'mov_prores'] as const).map((format) => ({
      recipe: { kind: 'transparent' as const, format },
      basename: `batch-${format}`,
    }));
    const results = await renderBatch({
      source,
      info,
      mask,
      outputs,
      outDir: path.join(tmp, 'batch'),
    });
    for (const r of results) {
      if (!r.ok) throw r.error;
      const decoder = r.output.extension === 'webm' ? ['-c:v', 'libvpx-vp9'] : [];
      expect(softColourError(await rgbaFrame([...decoder, '-i', r.output.file]))).toBeLessThan(
        TOLERANCE,
      );
    }
  });
});
