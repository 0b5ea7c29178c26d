import { describe, expect, it } from 'vitest';
import { BAD_COLOUR, Background, ExportItem } from './background';
import { CreateExportRequest } from './exports';
import { StartJobRequest } from './jobs';

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('Background', () => {
  it('accepts #RRGGBB and #RRGGBBAA and refuses other colours with the spec message', () => {
    expect(Background.safeParse({ type: 'color', color: '#00ff00' }).success).toBe(true);
    expect(Background.safeParse({ type: 'color', color: '#00FF0080' }).success).toBe(true);
    for (const color of ['green', '#0f0', '00ff00', '#00ff0', '#gg0000', 12]) {
      expect(issues(Background.safeParse({ type: 'color', color }))).toContain(BAD_COLOUR);
    }
  });

  it('accepts an explicit null for every optional field (Python SDK)', () => {
    const r = Background.safeParse({
      type: 'transparent',
      color: null,
      transparent_format: null,
      transform: null,
      options: null,
      lottie_options: null,
      composition: null,
      blur_mode: null,
      blur_intensity: null,
      blur_type: null,
    });
    expect(r.success).toBe(true);
    const start = StartJobRequest.safeParse({
      format: 'mp4',
      model: null,
      webhook_url: null,
      background: null,
      exports: null,
    });
    expect(start.success && start.data.model).toBe('service-original');
  });

  it('takes the client transparent formats, lottie among them, with lottie_options', () => {
    for (const f of [
      'webm_vp9',
      'mov_prores',
      'png_sequence',
      'pro_bundle',
      'stacked_video',
      'gif',
      'webp',
      'lottie',
      'mask_video_inverted',
      'hevc_alpha',
      'apng',
    ]) {
      expect(Background.safeParse({ type: 'transparent', transparent_format: f }).success).toBe(
        true,
      );
    }
    const lottie = (lottie_options: unknown) =>
      Background.safeParse({ type: 'transparent', transparent_format: 'lottie', lottie_options });
    expect(lottie({ preset: 'png', smart_sampling: false, threshold: 0.5 }).success).toBe(true);
    expect(lottie({ preset: null, smart_sampling: null, threshold: null }).success).toBe(true);
    expect(issues(lottie({ preset: 'ultra' }))).toEqual([
      'lottie_options.preset must be one of balanced, small, quality, png',
    ]);
    expect(lottie({ threshold: 2 }).success).toBe(false);
  });

  it("takes the n8n templates' composition values and names the valid ones when refusing", () => {
    const composition = (c: Record<string, unknown>) =>
      Background.safeParse({
        type: 'composition',
        composition: { background_url: 'https://x.test/bg.jpg', ...c },
      });
    expect(
      composition({ export_format: 'h264', export_preset: 'medium', export_crf: 18 }).success,
    ).toBe(true);
    for (const preset of ['ultrafast', 'veryfast', 'veryslow'])
      expect(composition({ export_preset: preset }).success).toBe(true);
    expect(issues(composition({ export_preset: 'placebo' }))).toEqual([
      'export_preset must be one of ultrafast, superfast, veryfast, ' +
        'faster, fast, medium, slow, slower, veryslow',
    ]);
    expect(issues(composition({ export_format: 'avi' }))).toEqual([
      'export_format must be one of mp4, h264, webm, mov',
    ]);
  });

  it('maps model aliases', () => {
    expect(StartJobRequest.parse({ model: 'videobgremover-light' }).model).toBe('service-light');
    expect(StartJobRequest.parse({ model: 'service-pro' }).model).toBe('service-pro');
    expect(StartJobRequest.safeParse({ model: 'nope' }).success).toBe(false);
  });
});

describe('exports', () => {
  it('refuses numeric sizes for fixed-layout formats', () => {
    expect(ExportItem.safeParse({ format: 'webp', sizes: ['native'] }).success).toBe(true);
    expect(ExportItem.safeParse({ format: 'webp', sizes: [320] }).success).toBe(false);
    expect(ExportItem.safeParse({ format: 'webm_vp9', sizes: [320, 'native'] }).success).toBe(true);
  });

  it('requires a background when exports are given', () => {
    expect(StartJobRequest.safeParse({ exports: [{ format: 'gif' }] }).success).toBe(false);
  });
});

describe('sticker exports', () => {
  it('take a sticker format, with crop, fps 12–30 and reverse only', () => {
    expect(
      ExportItem.safeParse({
        format: 'telegram_video_v1',
        transform: { fps: 12, reverse: true, crop: { x: 0, y: 0, width: 100, height: 100 } },
      }).success,
    ).toBe(true);
    expect(
      issues(ExportItem.safeParse({ format: 'telegram_video_v1', transform: { fps: 60 } })),
    ).toEqual(["a sticker's frame rate must be from 12 to 30 fps (got 60)"]);
    expect(
      issues(ExportItem.safeParse({ format: 'slack_gif_v1', transform: { fps: 11 } })),
    ).toHaveLength(1);
    expect(
      issues(ExportItem.safeParse({ format: 'discord_gif_v1', transform: { max_width: 200 } })),
    ).toEqual([
      'max_width is not supported for sticker formats (discord_gif_v1 has a fixed canvas)',
    ]);
    expect(issues(ExportItem.safeParse({ format: 'whatsapp_webp_v1', sizes: ['native'] }))).toEqual(
      ['sizes are not supported for sticker formats (whatsapp_webp_v1 has a fixed canvas)'],
    );
    // A sticker is not a start's transparent_format.
    expect(
      Background.safeParse({ type: 'transparent', transparent_format: 'telegram_video_v1' })
        .success,
    ).toBe(false);
  });

  it(
    'refuse sizes on a single sticker export with 400, as every ' +
      'field a sticker format refuses',
    () => {
      for (const body of [
        { format: 'slack_gif_v1', sizes: ['native'] },
        { sticker_profile: 'telegram_video_v1', sizes: [256] },
      ]) {
        expect(issues(CreateExportRequest.safeParse(body))).toEqual([
          expect.stringMatching(/^sizes are not supported for sticker formats/),
        ]);
      }
      expect(CreateExportRequest.safeParse({ format: 'slack_gif_v1', sizes: null }).success).toBe(
        true,
      );
    },
  );

  it('refuse an unknown format with 400, sizes or not, never a crash', () => {
    for (const body of [{ format: 'flash' }, { format: 'flash', sizes: [320] }]) {
      expect(CreateExportRequest.safeParse(body).success).toBe(false);
      expect(ExportItem.safeParse(body).success).toBe(false);
    }
  });

  it(
    'take one size on a single export of another format, and refuse ' +
      'what a single file cannot be',
    () => {
      expect(CreateExportRequest.parse({ format: 'webm_vp9', sizes: [640] })).toMatchObject({
        format: 'webm_vp9',
        transform: { max_width: 640 },
      });
      expect(
        CreateExportRequest.parse({ format: 'webm_vp9', sizes: ['native'], transform: { fps: 12 } })
          .transform,
      ).toEqual({ fps: 12 });
      expect(
        issues(CreateExportRequest.safeParse({ format: 'webm_vp9', sizes: [640, 320] })),
      ).toEqual([
        'a single export makes one file: give one size, or use batch-exports for several',
      ]);
      expect(
        issues(
          CreateExportRequest.safeParse({
            format: 'webm_vp9',
            sizes: [640],
            transform: { max_width: 320 },
          }),
        ),
      ).toEqual(['give the width once: in sizes or in transform.max_width']);
      expect(issues(CreateExportRequest.safeParse({ format: 'webp', sizes: [320] }))).toEqual([
        'numeric sizes are not supported for webp; use "native"',
      ]);
    },
  );

  it('accept sticker_profile as the older name of format', () => {
    expect(CreateExportRequest.parse({ sticker_profile: 'signal_apng_v1' })).toMatchObject({
      format: 'signal_apng_v1',
    });
    expect(
      CreateExportRequest.parse({ format: 'signal_apng_v1', sticker_profile: 'signal_apng_v1' }),
    ).toMatchObject({ format: 'signal_apng_v1' });
    expect(
      issues(CreateExportRequest.safeParse({ format: 'gif', sticker_profile: 'signal_apng_v1' })),
    ).toEqual(['format and sticker_profile name different formats; give one of them']);
    expect(
      issues(
        CreateExportRequest.safeParse({
          sticker_profile: 'slack_gif_v1',
          transform: { max_width: 64 },
        }),
      ),
    ).toHaveLength(1);
  });
});
