import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransparentFormat } from '../../engine/media/recipe';
import type { MediaInfo } from '../../engine/media/types';
import { ffmpeg } from './ffmpeg';
import { probeVideo } from './probe';
import { renderOutput } from './render';

/**
 * A soft edge's colour as each transparent family writes it, read back from the encoded file:
 * the colour as filmed, straight (not premultiplied), in every format. The clip: a blue subject
 * whose edge fades into magenta over 10 columns, with that fade as its mask, and a box moving far
 * off in the background. Until this test, the PNG and APNG masters multiplied two of the three
 * colour planes by alpha (the filter that zeroes hidden pixels cut only one plane), so their soft
 * edges came out dark.
 */
const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-edge-colour-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

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
let info: MediaInfo;

beforeAll(async () => {
  source = path.join(tmp, 'clip.mp4');
  mask = path.join(tmp, 'mask.mkv');
  const ramp = `geq=lum='clip((${EDGE1}-X-0.5)*255/${EDGE1 - EDGE0}\\,0\\,255)'`;
  await ffmpeg(['-v', 'error', '-f', 'lavfi', '-i', `color=black:s=${W}x${H}:r=25:d=1,format=gray,${ramp}`, '-c:v', 'ffv1', '-pix_fmt', 'gray', '-f', 'matroska', mask]);
  await ffmpeg([
    '-v', 'error',
    // A box moving in the background, far from the edge: frames differ, so no encoder merges them.
    '-f', 'lavfi', '-i', `color=0x${hex(OLD_BG)}:s=${W}x${H}:r=25:d=1,drawbox=x=224:y='t*100':w=16:h=16:color=yellow:t=fill`,
    '-f', 'lavfi', '-i', `color=0x${hex(SUBJECT)}:s=${W}x${H}:r=25:d=1`,
    '-f', 'matroska', '-i', mask,
    '-filter_complex', '[1:v][2:v]alphamerge[fg];[0:v][fg]overlay=format=rgb,format=yuv444p[v]',
    '-map', '[v]', '-c:v', 'libx264', '-qp', '0', source,
  ]);
  info = await probeVideo(source);
}, 120_000);

/** Frame n (the middle one unless said) of a file as RGBA. */
async function rgbaFrame(input: string[], n = 12): Promise<Buffer> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', ...input, '-vf', `select='eq(n\\,${n})',format=rgba`, '-frames:v', '1', '-f', 'rawvideo', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 26,
  });
  expect(stdout.length).toBe(W * H * 4);
  return stdout;
}

/** Mean absolute difference per channel between the filmed colour and the soft pixels' (alpha 0.25..0.75). */
function softEdgeError(rgba: Buffer): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const a = alphaAt(x);
      if (a < 0.25 || a > 0.75) continue;
      const p = (y * W + x) * 4;
      for (let c = 0; c < 3; c++) sum += Math.abs(rgba[p + c]! - filmed(x)[c]!);
      n += 3;
    }
  }
  expect(n).toBeGreaterThan(0);
  return sum / n;
}

describe('soft edges keep their straight, filmed colour', () => {
  const families: [TransparentFormat, (file: string) => Promise<Buffer>][] = [
    ['webm_vp9', (file) => rgbaFrame(['-c:v', 'libvpx-vp9', '-i', file])],
    ['apng', (file) => rgbaFrame(['-f', 'apng', '-i', file])],
    [
      'png_sequence',
      async (file) => {
        const dir = path.join(tmp, 'pngs-x');
        await run('unzip', ['-o', '-q', file, '-d', dir]);
        const pngs = fs.readdirSync(dir).filter((f) => f.endsWith('.png')).sort();
        return rgbaFrame(['-i', path.join(dir, pngs[12]!)], 0);
      },
    ],
  ];
  for (const [format, read] of families) {
    it(`${format}`, async () => {
      const out = await renderOutput({ source, info, mask, recipe: { kind: 'transparent', format }, outDir: path.join(tmp, format) });
      expect(softEdgeError(await read(out.file))).toBeLessThan(12);
    });
  }
});
