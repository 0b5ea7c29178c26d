import { describe, expect, it } from 'vitest';
import { TRANSPARENT_FORMATS } from '../formats';
import type { Blur, Recipe } from './recipe';
import {
  blurRadius,
  parseColor,
  planBatch,
  planPoster,
  planRender,
  RenderPlanError,
  templateLayout,
  workingFormat,
  type BackgroundInput,
  type RenderPlanInput,
} from './render-plan';
import { CLIP_720P } from './fixtures';

const info = CLIP_720P;

/** The clip's source and mask, as every plan here reads them. */
const CLIP_FILES = {
  info,
  source: '/in/src.mp4',
  mask: '/in/mask.mkv',
  maskFrames: 247,
  maxPixels: 8_294_400,
};
const inputOf = (recipe: Recipe, extra: Partial<RenderPlanInput> = {}): RenderPlanInput => ({
  ...CLIP_FILES,
  recipe,
  output: '/out/o',
  workDir: '/w',
  ...extra,
});
const plan = (recipe: Recipe, extra: Partial<RenderPlanInput> = {}) =>
  planRender(inputOf(recipe, extra));
const graphOf = (args: string[]) => args[args.indexOf('-filter_complex') + 1]!;
const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];
/** An MP4 composition over `file` at full frame; its background's audio off unless `extra` says. */
const composition = (
  file: string,
  extra: Partial<Extract<Recipe, { kind: 'composition' }>> = {},
): Recipe => ({
  kind: 'composition',
  background: { file },
  template: 'full',
  backgroundAudio: false,
  backgroundAudioVolume: 1,
  exportFormat: 'mp4',
  ...extra,
});
/** A PNG picture of `width` × `height` as a composition's background, read from a pipe. */
const pngBackground = (width: number, height: number): BackgroundInput => ({
  kind: 'image',
  file: '/in/bg.png',
  demuxer: 'png_pipe',
  width,
  height,
});
/** The filter graph of an MP4 blurred as `blur` says. */
const blurPlanGraph = (blur: Blur) =>
  graphOf(plan({ kind: 'blur', blur, exportFormat: 'mp4' }).steps[0]!);

describe('planRender: inputs and timeline', () => {
  /**
   * What an untrusted input must be read with: its demuxer forced, local files only, frames capped.
   */
  const guardedInput = (demuxer: string, file: string) => [
    ...['-f', demuxer, '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi'],
    ...['-max_pixels', '8294400', '-reinit_filter', '0', '-i', file],
  ];

  it.each(TRANSPARENT_FORMATS)(
    '%s reads the source and the mask safely, on the shared timeline',
    (format) => {
      const p = plan({ kind: 'transparent', format });
      for (const args of p.steps) {
        expect(args.slice(0, 24)).toEqual([
          ...guardedInput('mov', '/in/src.mp4'),
          ...guardedInput('matroska', '/in/mask.mkv'),
        ]);
        const g = graphOf(args);
        expect(g).toContain(
          '[0:v]scale=1280:720,setpts=PTS-STARTPTS,fps=24/1,' +
            'trim=end_frame=271,' +
            `format=${workingFormat({ kind: 'transparent', format })}[src]`,
        );
        expect(g).toContain(
          '[1:v]scale=1280:720,setpts=PTS-STARTPTS,fps=24/1,trim=end_frame=271,format=gray[matte]',
        );
        expect(g).toContain('[src][matte]alphamerge');
      }
      expect(p.promise.frames).toBe(format === 'gif' ? 257 : 247);
    },
  );
});

describe('planRender: a piped source (the colour with its edges estimated, on stdin)', () => {
  it(
    'reads the source for its sound and the raw frames from stdin, ' + 'already on the timeline',
    () => {
      const [args] = plan({ kind: 'transparent', format: 'webm_vp9' }, { piped: true }).steps;
      expect(args!.slice(10, 23)).toEqual([
        '-i',
        '/in/src.mp4',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuva444p',
        '-s',
        '1280x720',
        '-framerate',
        '24/1',
        '-i',
        'pipe:0',
        '-filter_complex',
      ]);
      const g = graphOf(args!);
      expect(g).toContain('[1:v]format=yuva444p,split[src_c][src_a]');
      expect(g).toContain('[src_a]alphaextract,format=gray[matte]');
      expect(g).toContain('[0:a:0]atrim');
      expect(g).not.toContain('fps=24/1');
    },
  );

  it('blur behind the subject blurs the filmed frame, decoded again from the source', () => {
    const g = graphOf(
      plan(
        {
          kind: 'blur',
          blur: { mode: 'background', type: 'gaussian', intensity: 50 },
          exportFormat: 'mp4',
        },
        { piped: true },
      ).steps[0]!,
    );
    expect(g).toContain(
      '[0:v]scale=1280:720,setpts=PTS-STARTPTS,fps=24/1,trim=end_frame=271,format=yuv420p[filmed]',
    );
    expect(g).toContain('[src]null[sharp]');
    expect(g).toContain('[filmed]split[toblur][plain]');
  });

  it('a composition still finds its background at input 2', () => {
    const p = plan(composition('/in/bg.png'), {
      piped: true,
      background: pngBackground(1280, 720),
    });
    expect(graphOf(p.steps[0]!)).toContain('[2:v]');
  });
});

describe('planRender: transparent formats', () => {
  it('merges in 4:2:0 for 4:2:0 files and in 4:4:4 for ProRes and RGB formats', () => {
    expect(workingFormat({ kind: 'transparent', format: 'webm_vp9' })).toBe('yuv420p');
    expect(workingFormat({ kind: 'transparent', format: 'mov_prores' })).toBe('yuv444p');
    expect(workingFormat({ kind: 'transparent', format: 'apng' })).toBe('yuv444p');
    expect(workingFormat({ kind: 'color', color: '#000000', exportFormat: 'mov' })).toBe('yuv444p');
    expect(workingFormat({ kind: 'color', color: '#000000', exportFormat: 'webm' })).toBe(
      'yuv420p',
    );
  });

  it('webm_vp9: VP9 yuva420p, alpha_mode=1, realtime settings, Opus audio', () => {
    const [args] = plan({ kind: 'transparent', format: 'webm_vp9' }).steps;
    expect(after(args!, '-c:v')).toBe('libvpx-vp9');
    expect(after(args!, '-pix_fmt')).toBe('yuva420p');
    expect(args).toEqual(
      expect.arrayContaining([
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-row-mt',
        '1',
        'alpha_mode=1',
        'libopus',
      ]),
    );
    expect(args).toContain('[aout]');
    expect(args!.at(-1)).toBe('/out/o');
  });

  it('mov_prores: ProRes 4444 with alpha via prores_ks', () => {
    const [args] = plan({ kind: 'transparent', format: 'mov_prores' }).steps;
    expect(args).toEqual(
      expect.arrayContaining(['prores_ks', '-profile:v', '4444', 'yuva444p10le', 'pcm_s16le']),
    );
  });

  it(
    'hevc_alpha: the picture losslessly (FFV1 yuva420p + AAC in ' +
      'NUT) for the in-process HEVC encode',
    () => {
      const p = plan({ kind: 'transparent', format: 'hevc_alpha' });
      const [args] = p.steps;
      expect(args).toEqual(expect.arrayContaining(['ffv1', 'yuva420p', 'aac', '-f', 'nut']));
      expect(args!.at(-1)).toBe('/w/intermediate.nut');
      expect(p.finish).toEqual({
        kind: 'hevc-alpha',
        intermediate: '/w/intermediate.nut',
        output: '/out/o',
        fpsRational: '24/1',
        hasAudio: true,
      });
    },
  );

  it('stacked video: colour on top, (inverted) matte below', () => {
    const g = graphOf(plan({ kind: 'transparent', format: 'stacked_video' }).steps[0]!);
    expect(g).toContain('[va0]alphaextract,format=yuv420p[va]');
    expect(g).toContain('[vc][va]vstack=inputs=2[v]');
    const inv = graphOf(
      plan({ kind: 'transparent', format: 'stacked_video_mask_inverted' }).steps[0]!,
    );
    expect(inv).toContain('alphaextract,negate');
    expect(plan({ kind: 'transparent', format: 'stacked_video' }).promise).toMatchObject({
      width: 1280,
      height: 720,
      alpha: 'stacked',
    });
  });

  it('mask videos are H.264 greyscale without audio', () => {
    const p = plan({ kind: 'transparent', format: 'mask_video_inverted' });
    expect(graphOf(p.steps[0]!)).toContain('[t]alphaextract,negate,format=yuv420p[v]');
    expect(p.steps[0]).not.toContain('[aout]');
    expect(p.promise).toMatchObject({ codec: 'h264', hasAudio: false, inverted: true });
  });

  it(
    'pro_bundle: one run writing color.mp4, alpha.mp4 and ' + 'audio.m4a, zipped with a manifest',
    () => {
      const p = plan({ kind: 'transparent', format: 'pro_bundle' });
      expect(p.steps).toHaveLength(1);
      expect(p.steps[0]).toEqual(
        expect.arrayContaining(['/w/color.mp4', '/w/alpha.mp4', '/w/audio.m4a']),
      );
      expect(p.zip?.files.map((f) => f.name)).toEqual(['color.mp4', 'alpha.mp4', 'audio.m4a']);
      expect(p.zip?.manifest?.name).toBe('manifest.json');
      const noAudio = plan(
        { kind: 'transparent', format: 'pro_bundle' },
        { info: { ...info, hasAudio: false } },
      );
      expect(noAudio.zip?.files.map((f) => f.name)).toEqual(['color.mp4', 'alpha.mp4']);
    },
  );

  it(
    'gif: palette pass, then paletteuse with a reserved transparent ' +
      'entry, at a centisecond rate',
    () => {
      const p = plan({ kind: 'transparent', format: 'gif' });
      expect(p.steps).toHaveLength(2);
      expect(graphOf(p.steps[0]!)).toContain('palettegen=max_colors=256:reserve_transparent=1');
      expect(graphOf(p.steps[1]!)).toContain('paletteuse=');
      expect(graphOf(p.steps[1]!)).toContain('fps=100/4');
      expect(p.promise.fps).toBe(25);
    },
  );

  it(
    'lottie: frames named by index, held by mpdecimate with smart ' +
      'sampling, cut by a threshold, WebP or PNG by preset',
    () => {
      const d = plan({ kind: 'transparent', format: 'lottie' });
      expect(graphOf(d.steps[0]!)).toContain(
        '[t]settb=1/24,setpts=N,format=yuva444p,mpdecimate,format=yuva420p[i]',
      );
      expect(d.steps[0]).toEqual(
        expect.arrayContaining([
          'libwebp',
          '-quality',
          '75',
          '-frame_pts',
          '1',
          '/w/frames/frame_%06d.webp',
        ]),
      );
      expect(d.lottie).toEqual({
        directory: '/w/frames',
        image: 'webp',
        width: 1280,
        height: 720,
        fps: 24,
        frames: 247,
      });
      expect(d.promise).toMatchObject({
        profile: 'lottie-alpha',
        codec: 'lottie',
        alpha: 'straight',
        hasAudio: false,
      });
      const png = plan({
        kind: 'transparent',
        format: 'lottie',
        lottie: { preset: 'png', smartSampling: false, threshold: 0.5 },
        transform: { max_width: 640 },
      });
      expect(graphOf(png.steps[0]!)).toContain(
        "[t]settb=1/24,setpts=N,format=yuva444p,lut=a='if(gte(val,128),255,0)',format=yuva420p[i]",
      );
      expect(png.steps[0]).toEqual(expect.arrayContaining(['png', '/w/frames/frame_%06d.png']));
      expect(png.lottie).toMatchObject({ image: 'png', width: 640, height: 360 });
    },
  );

  it('webp, apng, png_sequence: alpha kept, loop forever for animations', () => {
    expect(plan({ kind: 'transparent', format: 'webp' }).steps[0]).toEqual(
      expect.arrayContaining(['libwebp_anim', '-loop', '0']),
    );
    expect(plan({ kind: 'transparent', format: 'apng' }).steps[0]).toEqual(
      expect.arrayContaining(['apng', '-plays', '0']),
    );
    const seq = plan({ kind: 'transparent', format: 'png_sequence' });
    expect(seq.steps[0]!.at(-1)).toBe('/w/frames/frame_%06d.png');
    expect(seq.zip?.directory).toBe('/w/frames');
  });

  it(
    'transforms apply after the merge, in order crop → scale → fps ' +
      '→ reverse, audio reversed too',
    () => {
      const p = plan({
        kind: 'transparent',
        format: 'webm_vp9',
        transform: {
          crop: { x: 10, y: 20, width: 640, height: 360 },
          max_width: 320,
          fps: 12,
          reverse: true,
        },
      });
      const g = graphOf(p.steps[0]!);
      expect(g).toContain(
        'alphamerge,crop=640:360:10:20,scale=320:180:flags=bicubic,' +
          'setsar=1,fps=12/1,reverse,format=yuva420p[t]',
      );
      expect(g).toContain('areverse');
      expect(p.promise).toMatchObject({ width: 320, height: 180, fps: 12 });
    },
  );

  it('refuses a reverse that would not fit in memory', () => {
    expect(() =>
      plan(
        { kind: 'transparent', format: 'webm_vp9', transform: { reverse: true } },
        { maskFrames: 24 * 600 },
      ),
    ).toThrow(RenderPlanError);
  });
});

describe('planRender: opaque recipes', () => {
  it('color: the subject over a colour source, H.264 MP4 with audio', () => {
    const p = plan({ kind: 'color', color: '#00FF00', exportFormat: 'mp4' });
    const g = graphOf(p.steps[0]!);
    expect(g).toContain('color=c=0x00FF00:s=1280x720:r=24/1');
    expect(g).toContain('[bg][fg]overlay=shortest=1:format=yuv420');
    expect(p.steps[0]).toEqual(expect.arrayContaining(['libx264', '+faststart', 'aac']));
    expect(p.promise).toMatchObject({ alpha: 'none', profile: 'video-opaque', hasAudio: true });
  });

  it('export containers: webm = VP9 + Opus, mov = ProRes 422 HQ + PCM, crf honoured', () => {
    const webm = plan({
      kind: 'blur',
      blur: { mode: 'background', intensity: 50, type: 'gaussian' },
      exportFormat: 'webm',
      crf: 40,
    });
    expect(webm.steps[0]).toEqual(expect.arrayContaining(['libvpx-vp9', '-crf', '40', 'libopus']));
    const mov = plan({
      kind: 'blur',
      blur: { mode: 'subject', intensity: 50, type: 'box' },
      exportFormat: 'mov',
    });
    expect(mov.steps[0]).toEqual(
      expect.arrayContaining(['prores_ks', '-profile:v', '3', 'yuv422p10le', 'pcm_s16le']),
    );
    expect(mov.promise.codec).toBe('prores');
  });

  it('mp4: x264 at the preset asked for (veryfast when none), crf honoured', () => {
    const blur = { mode: 'background', intensity: 50, type: 'gaussian' } as const;
    expect(
      plan({ kind: 'blur', blur, exportFormat: 'mp4', crf: 23, preset: 'medium' }).steps[0],
    ).toEqual(expect.arrayContaining(['libx264', '-preset', 'medium', '-crf', '23']));
    expect(plan({ kind: 'blur', blur, exportFormat: 'mp4' }).steps[0]).toEqual(
      expect.arrayContaining(['-preset', 'veryfast', '-crf', '20']),
    );
  });

  it('blur: background mode keeps the subject sharp, subject mode blurs it', () => {
    const bg = blurPlanGraph({ mode: 'background', intensity: 100, type: 'gaussian' });
    // The background is blurred from the background's side of the matte only.
    expect(bg).toContain('[side]negate[weight]');
    expect(bg).toContain(
      '[tw][weight]alphamerge,premultiply=inplace=1,gblur=sigma=36,unpremultiply=inplace=1',
    );
    expect(bg).toContain('[sharp][m]alphamerge');
    expect(bg).toContain('[blurred][fg]overlay');
    const subj = blurPlanGraph({ mode: 'subject', intensity: 50, type: 'box' });
    expect(subj).toContain('[side]null[weight]');
    expect(subj).toContain('boxblur=luma_radius=18:luma_power=2');
    expect(subj).toContain('[blurred][m]alphamerge');
    const none = blurPlanGraph({ mode: 'background', intensity: 0, type: 'gaussian' });
    expect(none).toContain('[toblur]null[blurred]');
    expect(none).not.toContain('premultiply');
  });

  it('composition on an image: one decoded picture looped on the output clock', () => {
    const p = plan(
      composition('/in/bg.png', { backgroundAudio: true, backgroundAudioVolume: 0.5 }),
      { background: pngBackground(4000, 3000) },
    );
    const args = p.steps[0]!;
    expect(args).toEqual(expect.arrayContaining(['-f', 'png_pipe', '-i', '/in/bg.png']));
    const g = graphOf(args);
    expect(g).toContain('scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720');
    expect(g).toContain('loop=loop=-1:size=1,setpts=N/(24/1)/TB,fps=24/1[bg]');
    expect(g).not.toContain('[2:a:0]');
  });

  it('composition on a video: looped, audio mixed at its volume', () => {
    const bgInfo = {
      ...info,
      demuxer: 'matroska' as const,
      width: 1920,
      height: 1080,
      fpsRational: '30/1',
    };
    const p = plan(
      composition('/in/bg.webm', {
        template: 'ai_ugc_ad',
        backgroundAudio: true,
        backgroundAudioVolume: 0.3,
      }),
      { background: { kind: 'video', file: '/in/bg.webm', info: bgInfo } },
    );
    const args = p.steps[0]!;
    expect(args.slice(args.indexOf('-stream_loop'), args.indexOf('-stream_loop') + 4)).toEqual([
      '-stream_loop',
      '-1',
      '-f',
      'matroska',
    ]);
    const g = graphOf(args);
    // Its own size and a zero start, then the foreground's rate; looped, so never trimmed.
    expect(g).toContain('[2:v]scale=1920:1080,setpts=PTS-STARTPTS,fps=24/1,scale=');
    expect(g).toContain('[2:a:0]aresample=48000,volume=0.3');
    expect(g).toContain('amix=inputs=2:duration=longest:normalize=0');
    expect(g).toContain("lut=a='val*0.95'");
    expect(p.promise).toMatchObject({ width: 1920, height: 1080 });
  });
});

describe('templates, colours, blur strength', () => {
  const bg = pngBackground(1080, 1920);
  it('ai_ugc_ad puts the foreground at the bottom-right, 35 % wide, 95 % opaque', () => {
    expect(templateLayout('ai_ugc_ad', { width: 1280, height: 720 }, bg)).toEqual({
      canvas: { width: 1080, height: 1920 },
      fg: { width: 378, height: 212 },
      x: 702,
      y: 1708,
      opacity: 0.95,
    });
  });
  it('centered fits the foreground inside the background and centres it', () => {
    expect(templateLayout('centered', { width: 1280, height: 720 }, bg)).toMatchObject({
      fg: { width: 1080, height: 606 },
      x: 0,
      y: 657,
    });
  });
  it('full uses the foreground frame', () => {
    expect(templateLayout('full', { width: 640, height: 360 }, bg)).toMatchObject({
      canvas: { width: 640, height: 360 },
      x: 0,
      y: 0,
    });
  });
  it('parses #RRGGBB and flattens #RRGGBBAA over black', () => {
    expect(parseColor('#12abEF')).toBe('0x12ABEF');
    expect(parseColor('#FFFFFF80')).toBe('0x808080');
    expect(() => parseColor('red')).toThrow(RenderPlanError);
  });
  it('maps intensity to 0..5 % of the shorter side', () => {
    expect(blurRadius(0, { width: 1280, height: 720 })).toBe(0);
    expect(blurRadius(1, { width: 1280, height: 720 })).toBe(1);
    expect(blurRadius(100, { width: 1280, height: 720 })).toBe(36);
    expect(blurRadius(250, { width: 1280, height: 720 })).toBe(36);
  });
});

describe('planBatch: one decode for several outputs', () => {
  const batch = (
    formats: { format: (typeof TRANSPARENT_FORMATS)[number]; transform?: Recipe['transform'] }[],
  ) =>
    planBatch({
      ...CLIP_FILES,
      outputs: formats.map((f, i) => ({
        recipe: { kind: 'transparent', ...f },
        output: `/out/${i}`,
        workDir: `/w/${i}`,
      })),
    });

  it(
    'decodes and merges once, then splits to each output with its ' + 'own transform and encoder',
    () => {
      const b = batch([
        { format: 'webm_vp9' },
        { format: 'webm_vp9', transform: { max_width: 640 } },
        { format: 'mask_video' },
        { format: 'mov_prores', transform: { reverse: true } },
      ]);
      const args = b.shared!;
      expect(args.filter((a) => a === '-i')).toHaveLength(2);
      const g = graphOf(args);
      expect(g.match(/alphamerge/g)).toHaveLength(1);
      // ProRes merges in 4:4:4, so the shared picture is 4:4:4 for every branch.
      expect(g).toContain('[src][matte]alphamerge,format=yuva444p,split=4[m0][m1][m2][m3]');
      expect(g).toContain('[m1]scale=640:360:flags=bicubic,setsar=1,format=yuva420p[t1]');
      expect(g).toContain('[m3]reverse,format=yuva444p[t3]');
      expect(g).toContain('[t2]alphaextract,format=yuv420p[v2]');
      // Audio once, split to the outputs that carry it, reversed where the picture is.
      expect(g).toContain('asplit=3[as0][as1][as2]');
      expect(g).toContain('[as2]areverse[ao3]');
      for (const out of ['/out/0', '/out/1', '/out/2', '/out/3']) expect(args).toContain(out);
      expect(b.plans.map((p) => p.steps.length)).toEqual([0, 0, 0, 0]);
      expect(b.plans[1]!.promise).toMatchObject({ width: 640, height: 360, codec: 'vp9' });
    },
  );

  it('leaves multi-pass and multi-file formats to their own runs', () => {
    const b = batch([
      { format: 'webm_vp9' },
      { format: 'gif' },
      { format: 'apng' },
      { format: 'pro_bundle' },
    ]);
    expect(b.shared).not.toBeNull();
    expect(b.plans.map((p) => p.steps.length)).toEqual([0, 2, 0, 1]);
    expect(batch([{ format: 'webm_vp9' }, { format: 'gif' }]).shared).toBeNull();
  });
});

describe('planPoster', () => {
  it(
    'one PNG of the representative frame as the format shows it, at ' +
      'the output size, never retimed',
    () => {
      const poster = planPoster(
        inputOf({
          kind: 'transparent',
          format: 'webm_vp9',
          transform: { max_width: 320, fps: 12, reverse: true },
        }),
        '/out/p.png',
      );
      const args = poster.args;
      expect([poster.width, poster.height]).toEqual([320, 180]);
      const g = graphOf(args);
      expect(g).toContain('scale=320:180:flags=bicubic');
      expect(g).not.toContain('reverse');
      expect(g).not.toContain('fps=12');
      expect(g).toContain("[shown]select='eq(n\\,82)'[picked]");
      expect(g).toContain('alphamerge,format=rgba[poster]');
      expect(args.slice(-11)).toEqual([
        '-map',
        '[poster]',
        '-frames:v',
        '1',
        '-c:v',
        'png',
        '-update',
        '1',
        '-f',
        'image2',
        '/out/p.png',
      ]);
      expect(
        graphOf(planPoster(inputOf({ kind: 'transparent', format: 'mask_video' }), '/p.png').args),
      ).toContain('alphaextract,format=yuv420p[shown]');
      expect(
        graphOf(
          planPoster(inputOf({ kind: 'color', color: '#000000', exportFormat: 'mp4' }), '/p.png')
            .args,
        ),
      ).toContain('format=rgb24[poster]');
      const stacked = planPoster(
        inputOf({ kind: 'transparent', format: 'stacked_video' }),
        '/p.png',
      );
      expect([stacked.width, stacked.height]).toEqual([1280, 1440]);
    },
  );
});
