import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOTTIE_OPTIONS, type LottieOptions } from '../../engine/formats';
import type { MediaInfo } from '../../engine/media/types';
import { probeVideo } from './probe';
import { renderOutput } from './render';
import { fromLavfi, H264 } from './fixtures';
import { allFrames } from '../../tests/support/frames';

/**
 * Lottie files rendered and validated for real: a clip whose first second stands still and whose
 * second moves, under a soft-edged mask (a square with a blurred rim).
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-lottie-'));
const source = path.join(tmp, 'clip.mp4');
const mask = path.join(tmp, 'mask.mkv');
let info: MediaInfo;

interface Doc {
  w: number;
  h: number;
  fr: number;
  op: number;
  assets: { id: string; p: string }[];
  layers: { refId: string; ip: number; op: number; ty: number }[];
}

beforeAll(async () => {
  await fromLavfi(
    source,
    [
      'testsrc2=s=160x120:r=25:d=1,trim=end_frame=1,loop=loop=24:size=1',
      'testsrc2=s=160x120:r=25:d=1',
    ],
    ['-filter_complex', '[0:v]setpts=N/25/TB[a];[a][1:v]concat=n=2:v=1[v]', '-map', '[v]', ...H264],
  );
  await fromLavfi(
    mask,
    'color=c=black:s=160x120:r=25:d=2,' +
      'drawbox=x=40:y=20:w=80:h=80:color=white:t=fill,gblur=sigma=4,' +
      'format=gray',
    ['-c:v', 'ffv1'],
  );
  info = await probeVideo(source);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function render(
  name: string,
  lottie?: Partial<LottieOptions>,
  maxWidth?: number,
  matte = mask,
) {
  const out = await renderOutput({
    source,
    info,
    mask: matte,
    recipe: {
      kind: 'transparent',
      format: 'lottie',
      ...(lottie ? { lottie: { ...DEFAULT_LOTTIE_OPTIONS, ...lottie } } : {}),
      ...(maxWidth ? { transform: { max_width: maxWidth } } : {}),
    },
    outDir: path.join(tmp, name),
  });
  return { out, doc: JSON.parse(fs.readFileSync(out.file, 'utf8')) as Doc };
}

/** The alpha values of an embedded image. */
async function alphaOf(uri: string, file: string): Promise<Set<number>> {
  fs.writeFileSync(file, Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64'));
  return new Set(await allFrames(['-i', file], 'gray', 'alphaextract'));
}

describe('Lottie output', () => {
  it(
    'holds the still second with smart sampling (the default) and ' +
      'embeds the moving one frame by frame',
    async () => {
      const { out, doc } = await render('smart');
      expect(out).toMatchObject({ extension: 'json', contentType: 'application/json' });
      expect(doc).toMatchObject({ w: 160, h: 120, fr: 25, op: 50 });
      expect(doc.layers[0]).toMatchObject({ ty: 2, ip: 0, refId: 'frame_0' });
      // The still second is one image held for 25 frames; the moving one keeps (nearly) every
      // frame.
      expect(doc.layers[0]!.op).toBeGreaterThanOrEqual(25);
      expect(doc.assets.length).toBeGreaterThan(20);
      expect(doc.assets.length).toBeLessThan(30);
      expect(out.metadata).toMatchObject({
        validated: true,
        format: 'lottie',
        profile: 'lottie-alpha',
        frame_count: 50,
        fps: 25,
        lottie: { images: doc.assets.length, image_format: 'webp' },
      });
      expect(out.metadata.bytes).toBe(fs.statSync(out.file).size);
    },
  );

  it('embeds every frame without smart sampling, and soft alpha stays soft', async () => {
    const { out, doc } = await render('every', { smartSampling: false });
    expect(doc.assets).toHaveLength(50);
    expect(doc.layers.map((l) => l.op - l.ip)).toEqual(Array(50).fill(1));
    expect(out.metadata.alpha_range).toEqual([0, 255]);
    expect(
      [...(await alphaOf(doc.assets[30]!.p, path.join(tmp, 'a.webp')))].some(
        (v) => v > 0 && v < 255,
      ),
    ).toBe(true);
  });

  it(
    'makes PNG frames with hard alpha for the png preset and a ' + 'threshold, at a smaller canvas',
    async () => {
      const { out, doc } = await render('png', { preset: 'png', threshold: 0.5 }, 80);
      expect(doc).toMatchObject({ w: 80, h: 60 });
      expect(doc.assets.every((a) => a.p.startsWith('data:image/png;base64,'))).toBe(true);
      expect(
        [...(await alphaOf(doc.assets[0]!.p, path.join(tmp, 'a.png')))].sort((a, b) => a - b),
      ).toEqual([0, 255]);
      expect(out.metadata).toMatchObject({
        width: 80,
        height: 60,
        pixel_format: 'rgba',
        lottie: { image_format: 'png' },
      });
    },
  );

  it('passes frames a subject fills wholly (libwebp then writes them without alpha)', async () => {
    const full = path.join(tmp, 'full.mkv');
    await fromLavfi(full, 'color=c=black:s=160x120:r=25:d=2,format=gray,lut=c0=255', [
      '-c:v',
      'ffv1',
    ]);
    const { out } = await render('opaque', { smartSampling: false }, undefined, full);
    expect(out.metadata).toMatchObject({
      validated: true,
      alpha_range: [255, 255],
      lottie: { images: 50, image_format: 'webp' },
    });
  });
});
