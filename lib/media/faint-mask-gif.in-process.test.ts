import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../engine/media/types';
import { ffmpeg } from './ffmpeg';
import { probeVideo } from './probe';
import { renderOutput } from './render';
import { fromLavfi, H264 } from './fixtures';

// A near-empty mask (what is left after subtracting "person"): faint everywhere, below the GIF
// encoder's alpha threshold, so a correct GIF of it is wholly transparent.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-faint-gif-'));
let source: string;
let info: MediaInfo;
const faint = path.join(tmp, 'faint.mkv');
const half = path.join(tmp, 'half.mkv');

beforeAll(async () => {
  source = path.join(tmp, 'clip.mp4');
  await fromLavfi(source, 'testsrc2=s=160x120:r=25:d=2', H264);
  const mask = (box: string, out: string) =>
    ffmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=black:s=160x120:r=25:d=2,drawbox=x=0:y=0:w=80:h=120:color=${box}:t=fill,format=gray`,
      '-c:v',
      'ffv1',
      out,
    ]);
  await mask('0x303030', faint);
  await mask('white', half);
  info = await probeVideo(source);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a GIF judged against its mask', () => {
  it.each([
    {
      title:
        'passes when the mask is too faint for GIF transparency: the ' +
        'file is rightly all transparent',
      mask: () => faint,
      dir: 'faint',
      alphaRange: [0, 0],
    },
    {
      title: 'still passes a GIF of a mask with a clear subject',
      mask: () => half,
      dir: 'half',
      alphaRange: [0, 255],
    },
  ])('$title', async ({ mask, dir, alphaRange }) => {
    const out = await renderOutput({
      source,
      info,
      mask: mask(),
      recipe: { kind: 'transparent', format: 'gif' },
      outDir: path.join(tmp, dir),
    });
    expect(out.metadata).toMatchObject({ validated: true, alpha_range: alphaRange });
  });
});
