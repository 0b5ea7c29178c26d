import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransparentFormat } from '../../engine/media/recipe';
import type { MediaInfo } from '../../engine/media/types';
import { canEncodeHevcAlpha } from '../../lib/media/capabilities';
import { decodeAlphaLayer } from '../../lib/media/hevc-alpha';
import { excerptWithMask } from '../../lib/media/fixtures';
import { renderOutput, type RenderedOutput } from '../../lib/media/render';
import { packetCountedProbe } from '../support/counted-probe';
import { expectHevcAlpha } from '../support/hevc-alpha-file';
import { firstStream, rawFrame, vp9WithAlpha } from '../support/frames';

/**
 * Every transparent format made from a real clip, each file then checked independently of the
 * renderer's own validation: ffprobe, ffmpeg decoding with the decoder that reads alpha,
 * `webpmux -info` and `unzip -l`.
 */
const run = promisify(execFile);
const VIDEOS = path.resolve(import.meta.dirname, '../../../shared/testdata/videos');
const hasTestdata = fs.existsSync(VIDEOS);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-outputs-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Frame n through `filter`, as raw 8-bit gray (w×h bytes). */
const grayFrame = (input: string[], filter: string, n: number) =>
  rawFrame(input, n, 'gray', `${filter},format=gray`);

const meanAbsDiff = (a: Buffer, b: Buffer) => {
  expect(a.length).toBe(b.length);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
};
const invert = (b: Buffer) => Buffer.from(b.map((v) => 255 - v));
const distinct = (b: Buffer) => new Set(b).size;

describe.skipIf(!hasTestdata)(
  'transparent outputs from a real clip (needs ../shared/testdata)',
  () => {
    let source: string;
    let mask: string;
    let info: MediaInfo;
    const frame = 25; // a frame in the middle of the 2 s excerpt
    let maskFrame: Buffer;
    const outputs = new Map<TransparentFormat, RenderedOutput>();
    const render = async (format: TransparentFormat) => {
      const o = await renderOutput({
        source,
        info,
        mask,
        recipe: { kind: 'transparent', format },
        outDir: path.join(tmp, 'out'),
        poster: true,
      });
      outputs.set(format, o);
      // Every output's poster is a PNG of one frame as the format shows it (checked by ffprobe).
      const alpha = ['straight', 'binary', 'separate'].includes(o.metadata.alpha);
      expect(await firstStream(o.poster!), format).toMatchObject({
        codec_name: 'png',
        width: o.metadata.width,
        height: o.metadata.height,
        pix_fmt: alpha ? 'rgba' : 'rgb24',
      });
      return o;
    };

    beforeAll(async () => {
      ({ source, info, mask } = await excerptWithMask(
        path.join(VIDEOS, 'liveportrait_d12_talking_glasses_512.mp4'),
        tmp,
        'talking',
        2,
      ));
      maskFrame = await grayFrame(['-i', mask], 'null', frame);
      expect(distinct(maskFrame)).toBeGreaterThan(2);
    });

    it(
      'webm_vp9: VP9 with a real, matching alpha (libvpx decoder), ' +
        'Opus audio, served as .webm',
      async () => {
        const o = await render('webm_vp9');
        expect(o).toMatchObject({ extension: 'webm', contentType: 'video/webm' });
        const p = await packetCountedProbe(o.file);
        const v = p.streams.find((s) => s.codec_type === 'video')!;
        expect(v).toMatchObject({ codec_name: 'vp9', width: 320, height: 320 });
        expect(v.tags?.alpha_mode ?? v.tags?.ALPHA_MODE).toBe('1');
        expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('opus');
        expect(Number(p.format.duration)).toBeCloseTo(2, 1);
        // ffmpeg's native VP9 decoder has no alpha plane at all; libvpx's has one, matching the
        // mask.
        await expect(grayFrame(['-i', o.file], 'alphaextract', frame)).rejects.toThrow();
        const alpha = await grayFrame(vp9WithAlpha(o.file), 'alphaextract', frame);
        expect(distinct(alpha)).toBeGreaterThan(2);
        expect(meanAbsDiff(alpha, maskFrame)).toBeLessThan(3);
        expect(o.metadata).toMatchObject({
          validated: true,
          format: 'vp9',
          profile: 'video-alpha',
          width: 320,
          height: 320,
          fps: 25,
          frame_count: 50,
          has_audio: true,
        });
        expect(o.metadata.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(o.metadata.bytes).toBe(fs.statSync(o.file).size);
      },
    );

    it('mov_prores: ProRes 4444 with alpha, PCM audio, served as .mov', async () => {
      const o = await render('mov_prores');
      expect(o.extension).toBe('mov');
      const p = await packetCountedProbe(o.file);
      const v = p.streams.find((s) => s.codec_type === 'video')!;
      expect(v).toMatchObject({ codec_name: 'prores', profile: '4444', codec_tag_string: 'ap4h' });
      expect(v.pix_fmt).toMatch(/^yuva444p/);
      expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('pcm_s16le');
      const alpha = await grayFrame(['-i', o.file], 'alphaextract', frame);
      expect(meanAbsDiff(alpha, maskFrame)).toBeLessThan(1);
    });

    it(
      'stacked_video and its inverted twin: colour on top, (inverted) ' +
        'matte below, double height, audio kept',
      async () => {
        for (const format of ['stacked_video', 'stacked_video_mask_inverted'] as const) {
          const o = await render(format);
          expect(o.extension).toBe('mp4');
          const p = await packetCountedProbe(o.file);
          expect(p.streams.find((s) => s.codec_type === 'video')).toMatchObject({
            codec_name: 'h264',
            width: 320,
            height: 640,
            pix_fmt: 'yuv420p',
          });
          expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
          const below = await grayFrame(['-i', o.file], 'crop=iw:ih/2:0:ih/2', frame);
          const expected = format === 'stacked_video' ? maskFrame : invert(maskFrame);
          expect(meanAbsDiff(below, expected)).toBeLessThan(3);
          expect(meanAbsDiff(below, invert(expected))).toBeGreaterThan(50);
          // The top half is the picture itself.
          const top = await grayFrame(['-i', o.file], 'crop=iw:ih/2:0:0', frame);
          const src = await grayFrame(['-i', source], 'null', frame);
          expect(meanAbsDiff(top, src)).toBeLessThan(4);
        }
      },
    );

    it(
      'mask_video and mask_video_inverted: H.264 greyscale mattes, ' + 'really (inverted)',
      async () => {
        for (const format of ['mask_video', 'mask_video_inverted'] as const) {
          const o = await render(format);
          const p = await packetCountedProbe(o.file);
          expect(p.streams.map((s) => s.codec_type)).toEqual(['video']);
          expect(p.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 320 });
          const matte = await grayFrame(['-i', o.file], 'null', frame);
          const expected = format === 'mask_video' ? maskFrame : invert(maskFrame);
          expect(meanAbsDiff(matte, expected)).toBeLessThan(2);
          expect(o.metadata.alpha_inverted).toBe(format === 'mask_video_inverted');
        }
      },
    );

    it(
      'pro_bundle: ZIP with color.mp4, alpha.mp4, audio.m4a and ' + 'manifest.json at its root',
      async () => {
        const o = await render('pro_bundle');
        expect(o).toMatchObject({ extension: 'zip', contentType: 'application/zip' });
        const { stdout } = await run('unzip', ['-l', o.file]);
        const names = stdout
          .split('\n')
          .map((l) => l.trim().split(/\s+/).at(-1))
          .filter((n): n is string => Boolean(n && /\.(mp4|m4a|json)$/.test(n)));
        expect(names.sort()).toEqual(['alpha.mp4', 'audio.m4a', 'color.mp4', 'manifest.json']);
        const dir = path.join(tmp, 'bundle');
        await run('unzip', ['-o', '-q', o.file, '-d', dir]);
        const color = await packetCountedProbe(path.join(dir, 'color.mp4'));
        expect(color.streams).toHaveLength(1);
        expect(color.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 320 });
        const alpha = await grayFrame(['-i', path.join(dir, 'alpha.mp4')], 'null', frame);
        expect(meanAbsDiff(alpha, maskFrame)).toBeLessThan(2);
        expect((await packetCountedProbe(path.join(dir, 'audio.m4a'))).streams[0]?.codec_name).toBe(
          'aac',
        );
        const manifest = JSON.parse(
          fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'),
        ) as Record<string, unknown>;
        expect(manifest).toMatchObject({
          color: 'color.mp4',
          alpha: 'alpha.mp4',
          audio: 'audio.m4a',
          width: 320,
          height: 320,
          frame_count: 50,
        });
      },
    );

    it('png_sequence: ZIP of one RGBA PNG per frame, alpha matching the mask', async () => {
      const o = await render('png_sequence');
      const { stdout } = await run('unzip', ['-l', o.file]);
      const pngs = stdout.split('\n').filter((l) => /frame_\d{6}\.png$/.test(l.trim()));
      expect(pngs).toHaveLength(50);
      const dir = path.join(tmp, 'seq');
      await run('unzip', ['-o', '-q', o.file, 'frame_000026.png', '-d', dir]);
      const png = path.join(dir, 'frame_000026.png');
      expect((await packetCountedProbe(png)).streams[0]).toMatchObject({
        codec_name: 'png',
        pix_fmt: 'rgba',
        width: 320,
        height: 320,
      });
      const alpha = await grayFrame(['-i', png], 'alphaextract', 0);
      expect(meanAbsDiff(alpha, maskFrame)).toBeLessThan(0.5);
    });

    it('webp: animated WebP with alpha that loops forever (webpmux -info)', async () => {
      const o = await render('webp');
      expect(o.contentType).toBe('image/webp');
      const { stdout } = await run('webpmux', ['-info', o.file]);
      expect(stdout).toContain('Canvas size: 320 x 320');
      expect(stdout).toMatch(/Features present: animation transparency/);
      expect(stdout).toMatch(/Loop Count\s*:\s*0/);
      // libwebp folds a frame identical to the one before into it (longer duration).
      const frames = Number(/Number of frames: (\d+)/.exec(stdout)?.[1]);
      expect(frames).toBeGreaterThan(40);
      expect(frames).toBeLessThanOrEqual(50);
      const rows = stdout.split('\n').filter((l) => /^\s*\d+:/.test(l));
      expect(rows).toHaveLength(frames);
      expect(rows.every((r) => /\byes\b/.test(r))).toBe(true); // every frame carries alpha
      const total = rows.reduce((t, r) => t + Number(r.trim().split(/\s+/)[6]), 0);
      expect(Math.abs(total - 2000)).toBeLessThanOrEqual(40);
    });

    it('gif: binary transparency, non-constant, loops forever', async () => {
      const o = await render('gif');
      const p = await packetCountedProbe(o.file);
      expect(p.streams[0]).toMatchObject({ codec_name: 'gif', width: 320, height: 320 });
      expect(Number(p.streams[0]!.nb_read_packets)).toBe(50);
      const alpha = await grayFrame(['-i', o.file], 'alphaextract', frame);
      expect([...new Set(alpha)].sort((a, b) => a - b)).toEqual([0, 255]);
      // Binary alpha follows the mask's 50 % line.
      const thresholded = Buffer.from(maskFrame.map((v) => (v >= 128 ? 255 : 0)));
      expect(meanAbsDiff(alpha, thresholded)).toBeLessThan(3);
      const bytes = fs.readFileSync(o.file);
      const netscape = bytes.indexOf('NETSCAPE2.0');
      expect(netscape).toBeGreaterThan(0);
      expect(bytes.readUInt16LE(netscape + 13)).toBe(0);
    });

    it('apng: RGBA animation with partial alpha, plays forever', async () => {
      const o = await render('apng');
      expect(o).toMatchObject({ extension: 'png', contentType: 'image/apng' });
      const p = await packetCountedProbe(o.file, ['-f', 'apng']);
      expect(p.streams[0]).toMatchObject({
        codec_name: 'apng',
        pix_fmt: 'rgba',
        width: 320,
        height: 320,
      });
      const alpha = await grayFrame(['-f', 'apng', '-i', o.file], 'alphaextract', frame);
      expect(meanAbsDiff(alpha, maskFrame)).toBeLessThan(0.5);
      const bytes = fs.readFileSync(o.file);
      const actl = bytes.indexOf('acTL');
      expect(bytes.readUInt32BE(actl + 4)).toBe(50);
      expect(bytes.readUInt32BE(actl + 8)).toBe(0);
    });

    it(
      'hevc_alpha (FFmpeg 8 through node-av): hvc1 MOV with an alpha ' +
        'layer per frame, alpha decoded back matching the mask, colour ' +
        'readable by the system FFmpeg 5.1, AAC audio',
      async () => {
        expect(await canEncodeHevcAlpha()).toBe(true);
        const o = await render('hevc_alpha');
        expect(o).toMatchObject({ extension: 'mov', contentType: 'video/quicktime' });
        const p = await packetCountedProbe(o.file);
        expect(p.streams.find((s) => s.codec_type === 'video')?.avg_frame_rate).toBe('25/1');
        expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
        await expectHevcAlpha(o.file, { width: 320, height: 320, frames: 50 });
        const colour = await grayFrame(['-i', o.file], 'null', frame);
        expect(colour.length).toBe(320 * 320);
        // FFmpeg 8 (node-av) decodes the alpha layer back: not constant, and it is the mask.
        const [alpha] = await decodeAlphaLayer(o.file, [frame]);
        expect(distinct(Buffer.from(alpha!))).toBeGreaterThan(2);
        expect(meanAbsDiff(Buffer.from(alpha!), maskFrame)).toBeLessThan(3);
      },
    );

    it('a clip without audio gives outputs without audio', async () => {
      const quiet = await excerptWithMask(
        path.join(VIDEOS, 'sam2_05_juggle_fullbody_1280x720.mp4'),
        tmp,
        'juggle',
        1,
      );
      const o = await renderOutput({
        ...quiet,
        recipe: { kind: 'transparent', format: 'stacked_video' },
        outDir: path.join(tmp, 'quiet'),
      });
      expect((await packetCountedProbe(o.file)).streams.map((s) => s.codec_type)).toEqual([
        'video',
      ]);
      expect(o.metadata).toMatchObject({ has_audio: false, width: 320, height: 360 });
    });
  },
);
