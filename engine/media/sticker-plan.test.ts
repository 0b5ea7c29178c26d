import { describe, expect, it } from 'vitest';
import { outputFormat, STICKER_FORMATS, type StickerFormat } from '../formats';
import { stickerGeometry } from './geometry';
import { planBatch, planPoster, planRender } from './render-plan';
import { budgetMissMessage, fitSticker, StickerBudgetError, stickerAttempts } from './sticker-plan';
import { CLIP_720P } from './fixtures';

const info = CLIP_720P;

const source = {
  info,
  source: '/in/src.mp4',
  mask: '/in/mask.mkv',
  maskFrames: 247,
  maxPixels: 8_294_400,
};
const plan = (
  format: StickerFormat,
  transform?: {
    fps?: number;
    reverse?: boolean;
    crop?: { x: number; y: number; width: number; height: number };
  },
) =>
  planRender({
    ...source,
    recipe: { kind: 'transparent', format, ...(transform ? { transform } : {}) },
    output: '/out/o',
    workDir: '/w',
  });
const policy = (f: StickerFormat) => outputFormat(f).sticker!;
const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1]!;

describe('sticker catalogue', () => {
  it('has the eight versioned formats with budgets at 90 % of the platform limits', () => {
    expect(STICKER_FORMATS).toEqual([
      'telegram_video_v1',
      'telegram_emoji_v1',
      'whatsapp_webp_v1',
      'discord_apng_v1',
      'discord_gif_v1',
      'signal_apng_v1',
      'imessage_apng_v1',
      'slack_gif_v1',
    ]);
    expect(STICKER_FORMATS.map((f) => [policy(f).canvas.width, policy(f).budgetBytes])).toEqual([
      [512, 235_929],
      [100, 235_929],
      [512, 460_800],
      [320, 471_859],
      [320, 471_859],
      [512, 276_480],
      [408, 450_000],
      [128, 115_200],
    ]);
    for (const f of STICKER_FORMATS) {
      expect(outputFormat(f)).toMatchObject({
        family: 'sticker',
        keepsAudio: false,
        nativeOnly: true,
      });
      expect(policy(f)).toMatchObject({ version: 1, policy: f.replace(/_v1$/, '') });
    }
    expect(policy('telegram_video_v1').maxSeconds).toBe(3);
    expect(policy('whatsapp_webp_v1').maxSeconds).toBe(10);
  });
});

describe('stickerGeometry', () => {
  it(
    'fits the source inside the canvas and speeds a long source up ' +
      'so the whole loop fits the cap',
    () => {
      const g = stickerGeometry(info, 247, undefined, {
        canvas: { width: 512, height: 512 },
        maxSeconds: 3,
        gifRates: false,
      });
      expect(g).toMatchObject({
        width: 512,
        height: 512,
        fps: 24,
        frames: 72,
        duration: 3,
        retimed: true,
        reverse: false,
      });
      expect(g.sticker!.fit).toEqual({ width: 512, height: 288 });
      expect(g.sticker!.loopSeconds).toBe(3);
      expect(g.sticker!.speed).toBeCloseTo(3 / (247 / 24), 6);
    },
  );

  it(
    'keeps a short source at its length; the rate stays within ' +
      '12–30 fps; GIF rates are whole centiseconds',
    () => {
      const short = stickerGeometry(
        info,
        60,
        { fps: 30 },
        { canvas: { width: 320, height: 320 }, maxSeconds: 5, gifRates: false },
      );
      expect(short).toMatchObject({ fps: 30, frames: 75, duration: 2.5 });
      expect(short.sticker!.speed).toBe(1);
      const slow = stickerGeometry({ ...info, fpsRational: '8/1' }, 40, undefined, {
        canvas: { width: 128, height: 128 },
        maxSeconds: 5,
        gifRates: false,
      });
      expect(slow.fps).toBe(12);
      const gif = stickerGeometry(info, 247, undefined, {
        canvas: { width: 320, height: 320 },
        maxSeconds: 5,
        gifRates: true,
      });
      expect(gif).toMatchObject({ fpsRational: '100/4', fps: 25, frames: 125 });
      // Frames are rounded down: the loop never runs past the cap.
      const odd = stickerGeometry(
        info,
        247,
        { fps: 14 },
        { canvas: { width: 320, height: 320 }, maxSeconds: 3, gifRates: true },
      );
      expect(odd.fpsRational).toBe('100/7');
      expect(odd.duration).toBeLessThanOrEqual(3);
    },
  );

  it('fits a crop, and a portrait source letterboxes the other way', () => {
    const crop = stickerGeometry(
      info,
      247,
      { crop: { x: 400, y: 0, width: 400, height: 720 } },
      { canvas: { width: 512, height: 512 }, maxSeconds: 3, gifRates: false },
    );
    expect(crop.sticker!.fit).toEqual({ width: 284, height: 512 });
  });
});

describe('the adaptive ladder', () => {
  it(
    'tries quality first, then the frame rate at the quality floor, ' +
      'and never shrinks the subject inside its canvas',
    () => {
      const a = stickerAttempts(policy('telegram_video_v1'), 24);
      expect(a.map((x) => [x.quality.crf, x.fps])).toEqual([
        [32, 24],
        [40, 24],
        [48, 24],
        [48, 20],
        [48, 15],
        [48, 12],
      ]);
      expect(a.every((x) => !('scale' in x))).toBe(true);
      // A start rate below a step skips it; no attempt is ever under 12 fps.
      expect(stickerAttempts(policy('signal_apng_v1'), 15).map((x) => x.fps)).toEqual([
        15, 15, 15, 15, 12,
      ]);
      for (const f of STICKER_FORMATS) {
        for (const x of stickerAttempts(policy(f), 30)) expect(x.fps).toBeGreaterThanOrEqual(12);
      }
      const gif = stickerAttempts(policy('discord_gif_v1'), 25);
      expect(gif.map((x) => x.fpsRational)).toEqual([
        '100/4',
        '100/4',
        '100/4',
        '100/5',
        '100/6',
        '100/8',
      ]);
    },
  );

  it('says by how much the smallest attempt missed', () => {
    const format = outputFormat('slack_gif_v1');
    const msg = budgetMissMessage(format, [
      { quality: { colours: 256, bayer: 3 }, fps: 25, bytes: 300_000, fits: false },
      { quality: { colours: 64, bayer: 5 }, fps: 12.5, bytes: 125_200, fits: false },
    ]);
    expect(msg).toContain('slack_gif_v1 could not fit its budget of 115,200 bytes');
    expect(msg).toContain(
      'the smallest of 2 attempts (64 colours, bayer scale 5, 12.5 ' +
        'fps) made 125,200 bytes, 10,000 bytes (8.7 %) over',
    );
  });
});

describe('planRender: stickers', () => {
  it(
    'writes the master (canvas, start rate, loop within the cap, ' +
      'hidden colour cleared) and plans every attempt from it',
    () => {
      const p = plan('telegram_video_v1');
      expect(p.steps).toHaveLength(1);
      const [args] = p.steps;
      const g = graphOf(args!);
      expect(g).toContain(
        `setpts=PTS*${(3 / (247 / 24)).toFixed(6)},fps=24/1,` +
          'trim=end_frame=72,scale=512:288:flags=bicubic,setsar=1,' +
          'pad=512:512:(ow-iw)/2:(oh-ih)/2:color=black@0',
      );
      expect(args).toEqual(expect.arrayContaining(['ffv1', 'bgra']));
      expect(args).not.toContain('[aout]');
      expect(args!.at(-1)).toBe('/w/master.mkv');
      expect(p.finish?.kind).toBe('sticker');
      const sticker = p.finish?.kind === 'sticker' ? p.finish.sticker : null;
      expect(sticker!.budgetBytes).toBe(235_929);
      const first = sticker!.attempts[0]!;
      expect(first.steps[0]).toEqual(
        expect.arrayContaining([
          '/w/master.mkv',
          'libvpx-vp9',
          'yuva420p',
          '-crf',
          '32',
          '-frames:v',
          '72',
          '-an',
          '/out/o',
        ]),
      );
      expect(first.promise).toMatchObject({
        codec: 'vp9',
        width: 512,
        height: 512,
        fps: 24,
        frames: 72,
        duration: 3,
        hasAudio: false,
      });
      const last = sticker!.attempts.at(-1)!;
      expect(last.promise).toMatchObject({ fps: 12, frames: 36 });
      // The floors keep the picture at the canvas size.
      expect(last.steps[0]![last.steps[0]!.indexOf('-vf') + 1]).toBe('fps=12/1,format=yuva420p');
    },
  );

  it(
    'APNG attempts write raw frames for the palette encoder; GIF ' +
      'ones two passes; WebP levels its alpha',
    () => {
      const apng = plan('signal_apng_v1').finish!;
      const a = apng.kind === 'sticker' ? apng.sticker.attempts[1]! : null;
      expect(a!.frames).toEqual({
        rawFrames: '/w/attempt-2/frames.rgba',
        width: 512,
        height: 512,
        frames: 72,
        fpsRational: '24/1',
        output: '/out/o',
        encode: { kind: 'apng-palette', colours: 128 },
      });
      expect(a!.steps[0]!.slice(-5)).toEqual([
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        '/w/attempt-2/frames.rgba',
      ]);
      const gif = plan('slack_gif_v1').finish!;
      const g = gif.kind === 'sticker' ? gif.sticker.attempts[0]! : null;
      expect(g!.steps).toHaveLength(2);
      expect(g!.steps[0]).toEqual(
        expect.arrayContaining([
          '-vf',
          'fps=100/4,palettegen=max_colors=256:reserve_transparent=1:stats_mode=full',
        ]),
      );
      const webp = plan('whatsapp_webp_v1').finish!;
      const w = webp.kind === 'sticker' ? webp.sticker.attempts[1]! : null;
      expect(w!.steps[0]).toEqual(expect.arrayContaining(['libwebp_anim', '-quality', '60']));
      expect(w!.steps[0]!.join(' ')).toContain("lut=a='round(val/17.0000)*17.0000'");
      expect(w!.promise).toMatchObject({ frames: 240, duration: 10 });
    },
  );

  it('takes fps (as the start rate) and reverse; the poster is the fitted canvas', () => {
    const p = plan('discord_apng_v1', { fps: 15, reverse: true });
    expect(graphOf(p.steps[0]!)).toContain(
      'fps=15/1,trim=end_frame=75,scale=320:180:flags=bicubic,setsar=1,reverse,pad=320:320',
    );
    const poster = planPoster(
      {
        ...source,
        recipe: { kind: 'transparent', format: 'discord_apng_v1' },
        output: '/out/o',
        workDir: '/w',
      },
      '/out/p.png',
    );
    expect(poster).toMatchObject({ width: 320, height: 320 });
    expect(graphOf(poster.args)).not.toContain('setpts=PTS*');
  });

  it('a use_gpu batch writes every sticker master in the one shared decode', () => {
    const b = planBatch({
      ...source,
      outputs: [
        {
          recipe: { kind: 'transparent', format: 'webm_vp9' },
          output: '/out/a.webm',
          workDir: '/w/0',
        },
        {
          recipe: { kind: 'transparent', format: 'telegram_video_v1' },
          output: '/out/b.webm',
          workDir: '/w/1',
        },
        {
          recipe: { kind: 'transparent', format: 'slack_gif_v1' },
          output: '/out/c.gif',
          workDir: '/w/2',
        },
      ],
    });
    expect(b.shared).toEqual(
      expect.arrayContaining(['/out/a.webm', '/w/1/master.mkv', '/w/2/master.mkv']),
    );
    expect(b.plans.map((p) => [p.steps.length, p.finish?.kind ?? null])).toEqual([
      [0, null],
      [0, 'sticker'],
      [0, 'sticker'],
    ]);
  });
});

describe('stickers in the browser (ffmpeg.wasm, the cut-out as source)', () => {
  // The studio's cut-out: VP9 with its alpha in WebM, the matte in the source itself.
  const cutout = {
    ...source,
    info: {
      ...info,
      demuxer: 'matroska' as const,
      container: 'webm' as const,
      videoCodec: 'vp9',
      hasAudio: false,
    },
    source: '/cut.webm',
    mask: null,
    runner: 'wasm' as const,
  };
  const browserPlan = (format: StickerFormat) =>
    planRender({
      ...cutout,
      recipe: { kind: 'transparent', format },
      output: '/out/o',
      workDir: '/w',
    });

  it(
    'decodes the cut-out with libvpx (its alpha) and takes the ' +
      'matte from it: one input, the same picture',
    () => {
      const p = browserPlan('discord_gif_v1');
      const args = p.steps[0]!;
      expect(args.slice(0, 4)).toEqual(['-c:v', 'libvpx-vp9', '-f', 'matroska']);
      expect(args.filter((a) => a === '-i')).toHaveLength(1);
      const g = graphOf(args);
      expect(g).toContain('format=yuva444p,split[src_c][src_a]');
      expect(g).toContain('[src_a]alphaextract,format=gray[matte]');
      // From the merge on, the graph is the server's.
      const server = graphOf(plan('discord_gif_v1').steps[0]!);
      expect(g.slice(g.indexOf('[src][matte]alphamerge'))).toBe(
        server.slice(server.indexOf('[src][matte]alphamerge')),
      );
    },
  );

  it(
    'VP9 attempts hand raw frames to WebCodecs at a share of the ' +
      'budget (0.7 × 235,929 bytes over 3 s, two streams) or 0.2 bits ' +
      'a pixel; the others run as on the server',
    () => {
      const t = browserPlan('telegram_video_v1').finish!;
      const a = t.kind === 'sticker' ? t.sticker.attempts[1]! : null;
      expect(a!.steps).toHaveLength(1);
      expect(a!.steps[0]).not.toContain('libvpx-vp9');
      expect(a!.frames).toMatchObject({
        rawFrames: '/w/attempt-2/frames.rgba',
        frames: 72,
        fpsRational: '24/1',
        encode: { kind: 'vp9-alpha', bitrate: 220_200 },
      });
      // A 100×100 emoji is held to 0.2 bits a pixel: 100 × 100 × 24 fps × 0.2.
      const e = browserPlan('telegram_emoji_v1').finish!;
      expect(e.kind === 'sticker' && e.sticker.attempts[0]!.frames!.encode).toEqual({
        kind: 'vp9-alpha',
        bitrate: 48_000,
      });
      const w = browserPlan('whatsapp_webp_v1').finish!;
      const server = plan('whatsapp_webp_v1').finish!;
      expect(w.kind === 'sticker' && w.sticker.attempts.map((x) => x.steps)).toEqual(
        server.kind === 'sticker' && server.sticker.attempts.map((x) => x.steps),
      );
    },
  );

  it('writes every master of a batch in one decode of the cut-out', () => {
    const b = planBatch({
      ...cutout,
      outputs: STICKER_FORMATS.map((format, i) => ({
        recipe: { kind: 'transparent' as const, format },
        output: `/out/${i}`,
        workDir: `/w/${i}`,
      })),
    });
    expect(b.shared!.filter((a) => a === '-i')).toHaveLength(1);
    expect(b.shared).toEqual(
      expect.arrayContaining(STICKER_FORMATS.map((_, i) => `/w/${i}/master.mkv`)),
    );
  });
});

describe('fitSticker', () => {
  const sticker = () => {
    const p = plan('slack_gif_v1').finish!;
    return p.kind === 'sticker' ? p.sticker : null!;
  };

  it('runs the attempts in order until one fits, discarding the files that did not', async () => {
    const sizes = [300_000, 200_000, 100_000, 90_000];
    const ran: number[] = [];
    let discarded = 0;
    const r = await fitSticker(
      outputFormat('slack_gif_v1'),
      sticker(),
      () => Promise.resolve(sizes[ran.push(ran.length) - 1]!),
      () => Promise.resolve(void discarded++),
    );
    expect(ran).toHaveLength(3);
    expect(discarded).toBe(2);
    expect(r.winner.attempt).toEqual(sticker().attempts[2]!.attempt);
    expect(r.attempts.map((a) => [a.bytes, a.fits])).toEqual([
      [300_000, false],
      [200_000, false],
      [100_000, true],
    ]);
  });

  it('says by how much the smallest attempt missed when none fits', async () => {
    const s = sticker();
    await expect(
      fitSticker(
        outputFormat('slack_gif_v1'),
        s,
        () => Promise.resolve(200_000),
        () => Promise.resolve(),
      ),
    ).rejects.toThrow(StickerBudgetError);
    await expect(
      fitSticker(
        outputFormat('slack_gif_v1'),
        s,
        () => Promise.resolve(200_000),
        () => Promise.resolve(),
      ),
    ).rejects.toThrow(`the smallest of ${s.attempts.length} attempts`);
  });
});
