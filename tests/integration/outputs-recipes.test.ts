import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recipe } from '../../engine/media/recipe';
import { planRender } from '../../engine/media/render-plan';
import { thumbnailFrame } from '../../engine/media/thumbnails';
import type { MediaInfo } from '../../engine/media/types';
import { env } from '../../lib/env';
import { MediaError } from '../../lib/media/ffmpeg';
import {
  excerptWithMask,
  fromLavfi,
  makeTestMask,
  syntheticClip,
  testMaskEllipse,
} from '../../lib/media/fixtures';
import { packetCountedProbe, streamEntries } from '../support/counted-probe';
import { allFrames, rawFrame } from '../support/frames';
import { hasTestdata, testVideo } from './helpers';
import { probeVideo } from '../../lib/media/probe';
import { renderOutput } from '../../lib/media/render';
import { renderThumbnails } from '../../lib/media/thumbnails';
import { validateOutput } from '../../lib/media/validate';
import { segmentVideo } from '../../lib/segment/mask-video';

/**
 * Colour, blur and composition recipes, transforms, thumbnails and validation, from a real clip;
 * pixels are checked against the mask: the colour/background where the subject is not, the
 * source where it is.
 */
const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-recipes-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Mean absolute RGB difference over the pixels `where` picks. */
function meanDiff(
  a: Buffer,
  b: Buffer | [number, number, number],
  width: number,
  where: (x: number, y: number) => boolean,
): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i += 3) {
    const p = i / 3;
    if (!where(p % width, Math.floor(p / width))) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c]! - (Array.isArray(b) ? b[c]! : b[i + c]!));
    n += 3;
  }
  expect(n).toBeGreaterThan(300);
  return sum / n;
}

describe.skipIf(!hasTestdata)(
  'recipes, transforms, thumbnails and validation from a real clip (needs ../shared/testdata)',
  () => {
    let source: string;
    let mask: string;
    let info: MediaInfo;
    const n = 25;
    let src: Buffer;
    let outside: (x: number, y: number) => boolean;
    let inside: (x: number, y: number) => boolean;
    const render = (recipe: Recipe, basename: string, m = mask, s = source, i = info) =>
      renderOutput({
        source: s,
        info: i,
        mask: m,
        recipe,
        outDir: path.join(tmp, 'out'),
        basename,
      });

    beforeAll(async () => {
      ({ source, info, mask } = await excerptWithMask(
        testVideo('liveportrait_d12_talking_glasses_512.mp4'),
        tmp,
        'talking',
        2,
      ));
      src = await rawFrame(['-i', source], n, 'rgb24');
      const e = testMaskEllipse(info, n);
      const d = (x: number, y: number) => Math.hypot((x - e.cx) / e.rx, (y - e.cy) / e.ry);
      outside = (x, y) => d(x, y) > 1.15;
      inside = (x, y) => d(x, y) < 0.8;
    });

    it(
      'color: the exact colour where the subject is not, the source ' + 'where it is, audio kept',
      async () => {
        const o = await render({ kind: 'color', color: '#2040C0', exportFormat: 'mp4' }, 'color');
        expect(o).toMatchObject({ extension: 'mp4', contentType: 'video/mp4' });
        const p = await packetCountedProbe(o.file);
        expect(p.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual([
          'video:h264',
          'audio:aac',
        ]);
        expect(Number(p.format.duration)).toBeCloseTo(2, 1);
        const out = await rawFrame(['-i', o.file], n, 'rgb24');
        expect(meanDiff(out, [0x20, 0x40, 0xc0], 320, outside)).toBeLessThan(3);
        expect(meanDiff(out, src, 320, inside)).toBeLessThan(5);
        expect(o.metadata).toMatchObject({
          validated: true,
          profile: 'video-opaque',
          alpha: 'none',
          has_alpha: false,
          alpha_range: null,
        });
      },
    );

    it('color with alpha (#RRGGBBAA) is flattened over black, here in a VP9 WebM', async () => {
      const o = await render(
        { kind: 'color', color: '#FFFFFF80', exportFormat: 'webm' },
        'color_alpha',
      );
      expect((await packetCountedProbe(o.file)).streams[0]).toMatchObject({
        codec_name: 'vp9',
        pix_fmt: 'yuv420p',
      });
      const out = await rawFrame(['-i', o.file], n, 'rgb24');
      expect(meanDiff(out, [128, 128, 128], 320, outside)).toBeLessThan(4);
    });

    it(
      'blur: background mode keeps the subject sharp; subject mode ' + 'blurs only the subject',
      async () => {
        const bg = await render(
          {
            kind: 'blur',
            blur: { mode: 'background', intensity: 80, type: 'gaussian' },
            exportFormat: 'mp4',
          },
          'blur_bg',
        );
        const a = await rawFrame(['-i', bg.file], n, 'rgb24');
        expect(meanDiff(a, src, 320, inside)).toBeLessThan(5);
        expect(meanDiff(a, src, 320, outside)).toBeGreaterThan(6);
        const subj = await render(
          {
            kind: 'blur',
            blur: { mode: 'subject', intensity: 80, type: 'box' },
            exportFormat: 'mov',
          },
          'blur_subject',
        );
        expect((await packetCountedProbe(subj.file)).streams[0]).toMatchObject({
          codec_name: 'prores',
          pix_fmt: 'yuv422p10le',
        });
        const b = await rawFrame(['-i', subj.file], n, 'rgb24');
        expect(meanDiff(b, src, 320, outside)).toBeLessThan(5);
        expect(meanDiff(b, src, 320, inside)).toBeGreaterThan(4);
      },
    );

    it('composition on an image: background scaled to cover, foreground on top', async () => {
      const image = path.join(tmp, 'green.jpg');
      await fromLavfi(image, 'color=c=0x10C020:s=1000x300', ['-frames:v', '1']);
      const o = await render(
        {
          kind: 'composition',
          background: { file: image },
          template: 'full',
          backgroundAudio: true,
          backgroundAudioVolume: 1,
          exportFormat: 'mp4',
        },
        'comp_image',
      );
      expect(o.metadata).toMatchObject({ width: 320, height: 320, has_audio: true });
      const out = await rawFrame(['-i', o.file], n, 'rgb24');
      expect(meanDiff(out, [0x10, 0xc0, 0x20], 320, outside)).toBeLessThan(4);
      expect(meanDiff(out, src, 320, inside)).toBeLessThan(5);
    });

    it(
      'composition on a shorter video (looped), ai_ugc_ad template, ' + 'background audio mixed in',
      async () => {
        const bgVideo = path.join(tmp, 'blue.mp4');
        await fromLavfi(
          bgVideo,
          ['color=c=0x2020E0:s=640x360:r=30:d=0.7', 'sine=f=880:d=0.7'],
          ['-c:v', 'libx264', '-c:a', 'aac', '-shortest'],
        );
        // A quiet foreground (no audio) shows the background's audio alone is carried.
        const quiet = await excerptWithMask(
          testVideo('sam2_05_juggle_fullbody_1280x720.mp4'),
          tmp,
          'juggle',
          1.5,
        );
        const o = await render(
          {
            kind: 'composition',
            background: { file: bgVideo },
            template: 'ai_ugc_ad',
            backgroundAudio: true,
            backgroundAudioVolume: 0.5,
            exportFormat: 'mp4',
          },
          'comp_video',
          quiet.mask,
          quiet.source,
          quiet.info,
        );
        const p = await packetCountedProbe(o.file);
        expect(p.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual([
          'video:h264',
          'audio:aac',
        ]);
        expect(p.streams[0]).toMatchObject({ width: 640, height: 360, avg_frame_rate: '24/1' });
        // the foreground's length, background looped
        expect(Number(p.streams[0]!.nb_read_packets)).toBe(36);
        const last = await rawFrame(['-i', o.file], 35, 'rgb24');
        const blue: [number, number, number] = [0x20, 0x20, 0xe0];
        // The foreground occupies the bottom-right 224x126 (35 % of 640); the rest is the looped
        // background.
        expect(meanDiff(last, blue, 640, (x, y) => x < 400 || y < 220)).toBeLessThan(4);
        expect(
          meanDiff(last, blue, 640, (x, y) => x > 500 && x < 540 && y > 270 && y < 330),
        ).toBeGreaterThan(30);
        // An image background takes the foreground's clock too (24 fps here, not the image's 25).
        const still = path.join(tmp, 'still.png');
        await fromLavfi(still, 'testsrc2=s=400x300', ['-frames:v', '1']);
        const centered = await render(
          {
            kind: 'composition',
            background: { file: still },
            template: 'centered',
            backgroundAudio: true,
            backgroundAudioVolume: 1,
            exportFormat: 'webm',
          },
          'comp_centered',
          quiet.mask,
          quiet.source,
          quiet.info,
        );
        const c = await packetCountedProbe(centered.file);
        expect(c.streams.map((s) => s.codec_type)).toEqual(['video']);
        expect(c.streams[0]).toMatchObject({
          codec_name: 'vp9',
          width: 400,
          height: 300,
          avg_frame_rate: '24/1',
          nb_read_packets: '36',
        });
      },
    );

    it('transform: crop, max_width, fps and reverse on a matte', async () => {
      const o = await render(
        {
          kind: 'transparent',
          format: 'mask_video',
          transform: {
            crop: { x: 40, y: 60, width: 200, height: 180 },
            max_width: 100,
            fps: 10,
            reverse: true,
          },
        },
        'mask_transformed',
      );
      const p = await packetCountedProbe(o.file);
      expect(p.streams[0]).toMatchObject({
        width: 100,
        height: 90,
        avg_frame_rate: '10/1',
        nb_read_packets: '20',
      });
      expect(Number(p.format.duration)).toBeCloseTo(2, 1);
      // Reversed: the first output frame is the last frame of the mask cropped, scaled and retimed.
      const reversed = await allFrames(
        ['-i', mask],
        'gray',
        'crop=200:180:40:60,scale=100:90,fps=10,reverse',
      );
      const want = reversed.subarray(0, 100 * 90);
      const got = await rawFrame(['-i', o.file], 0, 'gray');
      const diff = want.reduce((s, v, i) => s + Math.abs(v - got[i]!), 0) / want.length;
      expect(diff).toBeLessThan(8);
      const first = await rawFrame(['-i', mask], 0, 'gray', 'crop=200:180:40:60,scale=100:90');
      expect(first.reduce((s, v, i) => s + Math.abs(v - got[i]!), 0) / want.length).toBeGreaterThan(
        diff,
      );
    });

    it(
      'a phone video stored landscape with a display rotation comes ' +
        'out upright, without rotation metadata',
      async () => {
        const phone = testVideo('liveportrait_d13_stored_landscape_displaymatrix_portrait.mov');
        const pInfo = await probeVideo(phone);
        expect(pInfo).toMatchObject({ width: 720, height: 1280, rotation: 90 });
        const pMask = await makeTestMask(phone, pInfo, path.join(tmp, 'phone-mask.mkv'));
        const o = await render(
          { kind: 'transparent', format: 'stacked_video', transform: { max_width: 180 } },
          'phone',
          pMask,
          phone,
          pInfo,
        );
        const [v] = await streamEntries<{
          width: number;
          height: number;
          side_data_list?: unknown[];
        }>(o.file, 'stream=width,height:stream_side_data', { firstVideo: true });
        expect(v).toMatchObject({ width: 180, height: 640 });
        expect(v!.side_data_list ?? []).toEqual([]);
        // The matte (bottom half) is the mask as shown, portrait: the ellipse is taller than wide.
        const matte = await rawFrame(['-i', o.file], 60, 'gray', 'crop=iw:ih/2:0:ih/2');
        const rows = new Set<number>();
        const cols = new Set<number>();
        matte.forEach((val, i) => {
          if (val > 128) {
            rows.add(Math.floor(i / 180));
            cols.add(i % 180);
          }
        });
        expect(rows.size).toBeGreaterThan(cols.size * 1.5);
      },
    );

    it('thumbnails: a JPEG of the frame and a PNG with the cut-out alpha', async () => {
      const t = await renderThumbnails({ source, info, mask, outDir: path.join(tmp, 'thumbs') });
      expect((await packetCountedProbe(t.jpeg)).streams[0]).toMatchObject({
        codec_name: 'mjpeg',
        width: 320,
        height: 320,
      });
      expect((await packetCountedProbe(t.png)).streams[0]).toMatchObject({
        codec_name: 'png',
        pix_fmt: 'rgba',
        width: 320,
        height: 320,
      });
      const k = thumbnailFrame(50, info.fps);
      const alpha = await rawFrame(['-i', t.png], 0, 'gray', 'alphaextract');
      const m = await rawFrame(['-i', mask], k, 'gray');
      expect(alpha.reduce((s, v, i) => s + Math.abs(v - m[i]!), 0) / alpha.length).toBeLessThan(1);
    });

    it('validation refuses a file that does not keep the promise (never served)', async () => {
      const good = await render({ kind: 'transparent', format: 'webm_vp9' }, 'to_break');
      const plan = planRender({
        recipe: { kind: 'transparent', format: 'webm_vp9' },
        info,
        source,
        mask,
        maskFrames: 50,
        maxPixels: env().MAX_FRAME_PIXELS,
        output: good.file,
        workDir: tmp,
      });
      await expect(validateOutput({ file: good.file, plan, mask })).resolves.toMatchObject({
        validated: true,
      });
      // Alpha lost: the same picture re-encoded as VP9 without alpha.
      const opaque = path.join(tmp, 'opaque.webm');
      await run('ffmpeg', [
        '-v',
        'error',
        '-c:v',
        'libvpx-vp9',
        '-i',
        good.file,
        '-c:v',
        'libvpx-vp9',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-pix_fmt',
        'yuv420p',
        '-metadata:s:v:0',
        'alpha_mode=1',
        '-c:a',
        'copy',
        opaque,
      ]);
      await expect(validateOutput({ file: opaque, plan, mask })).rejects.toThrow(MediaError);
      // Truncated: frames missing.
      const short = path.join(tmp, 'short.webm');
      await run('ffmpeg', ['-v', 'error', '-i', good.file, '-t', '1', '-c', 'copy', short]);
      await expect(validateOutput({ file: short, plan, mask })).rejects.toThrow(/frames|lasts/);
      // Inverted matte where a straight one was promised.
      const inverted = await render(
        { kind: 'transparent', format: 'mask_video_inverted' },
        'inverted',
      );
      const matte = planRender({
        recipe: { kind: 'transparent', format: 'mask_video' },
        info,
        source,
        mask,
        maskFrames: 50,
        maxPixels: env().MAX_FRAME_PIXELS,
        output: inverted.file,
        workDir: tmp,
      });
      await expect(validateOutput({ file: inverted.file, plan: matte, mask })).rejects.toThrow(
        /inverted/,
      );
    });

    it('validates long outputs too (sampled frames reached by seeking)', async () => {
      const long = path.join(tmp, 'long.mp4');
      await syntheticClip(long, { seconds: 32, size: '160x90' });
      const lInfo = await probeVideo(long);
      const lMask = await makeTestMask(long, lInfo, path.join(tmp, 'long-mask.mkv'));
      for (const format of ['webm_vp9', 'mask_video_inverted'] as const) {
        const o = await render(
          { kind: 'transparent', format },
          `long_${format}`,
          lMask,
          long,
          lInfo,
        );
        expect(o.metadata).toMatchObject({
          validated: true,
          frame_count: 800,
          alpha_range: [0, 255],
        });
      }
    });

    it('renders a real segmentation mask (segmentVideo, service-human) as VP9 alpha', async () => {
      const real = path.join(tmp, 'real-mask.mkv');
      await segmentVideo({ input: source, info, maskOut: real, model: 'service-human' });
      const o = await render({ kind: 'transparent', format: 'webm_vp9' }, 'real', real);
      expect(o.metadata).toMatchObject({ validated: true, frame_count: 50 });
      expect(o.metadata.alpha_range).toEqual([0, 255]);
    });
  },
);

describe('blur keeps each side of the matte to itself', () => {
  /**
   * A 320x240 clip of a `disc` grey ellipse on a `ground` grey, and the ellipse itself as its mask.
   */
  async function discClip(name: string, disc: number, ground: number) {
    const inside = (x: number, y: number) => Math.hypot((x - 160) / 60, (y - 120) / 80);
    const draw =
      `color=black:s=320x240:r=10:d=1,format=gray,` +
      `geq=lum='if(lte(hypot((X-160)/60\\,(Y-120)/80)\\,1)\\,DISC\\,GROUND)'`;
    const source = path.join(tmp, `${name}.mp4`);
    const mask = path.join(tmp, `${name}-mask.mkv`);
    await fromLavfi(source, draw.replace('DISC', String(disc)).replace('GROUND', String(ground)), [
      '-c:v',
      'libx264',
      '-crf',
      '10',
      '-pix_fmt',
      'yuv420p',
    ]);
    await fromLavfi(mask, draw.replace('DISC', '255').replace('GROUND', '0'), ['-c:v', 'ffv1']);
    return { source, mask, info: await probeVideo(source), inside };
  }

  /** Frame 5 of the disc clip blurred as `blur` says, as RGB. */
  async function blurredFrame(
    c: Awaited<ReturnType<typeof discClip>>,
    blur: { mode: 'background' | 'subject'; intensity: number; type: 'gaussian' | 'box' },
  ): Promise<Buffer> {
    const o = await renderOutput({
      source: c.source,
      info: c.info,
      mask: c.mask,
      recipe: { kind: 'blur', blur, exportFormat: 'mp4' },
      outDir: path.join(tmp, 'out'),
      basename: `glow_${blur.mode}`,
    });
    return rawFrame(['-i', o.file], 5, 'rgb24');
  }

  it(
    'background mode: a white subject does not glow into the ' + 'blurred dark background',
    async () => {
      const c = await discClip('white-disc', 235, 16);
      const frame = await blurredFrame(c, { mode: 'background', intensity: 100, type: 'gaussian' });
      // Just outside the subject, where a blur of the whole frame is lit by it (sigma 12 px): 40
      // grey levels.
      expect(
        meanDiff(frame, [0, 0, 0], 320, (x, y) => c.inside(x, y) > 1.08 && c.inside(x, y) < 1.3),
      ).toBeLessThan(20);
      expect(meanDiff(frame, [0, 0, 0], 320, (x, y) => c.inside(x, y) < 0.9)).toBeGreaterThan(225);
    },
  );

  it('subject mode: the blurred subject keeps its own grey, not the white around it', async () => {
    const c = await discClip('grey-disc', 100, 235);
    const frame = await blurredFrame(c, { mode: 'subject', intensity: 100, type: 'box' });
    // Just inside its edge, where a blur of the whole frame lets the white in: 20 grey levels.
    expect(
      meanDiff(
        frame,
        [100, 100, 100],
        320,
        (x, y) => c.inside(x, y) > 0.7 && c.inside(x, y) < 0.92,
      ),
    ).toBeLessThan(6);
    expect(meanDiff(frame, [0, 0, 0], 320, (x, y) => c.inside(x, y) > 1.1)).toBeGreaterThan(225);
  });
});
