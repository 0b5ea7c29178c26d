import { describe, expect, it } from 'vitest';
import { BAD_COLOUR, Background, StoredBackground, classicBackground, ExportItem, LOTTIE_UNSUPPORTED, outputFormatOf, planExports, toRecipe } from './background';
import { CreateBatchRequest, CreateExportRequest } from './exports';
import { ImageToVideoRequest } from './image-to-video';
import { StartJobRequest } from './jobs';

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

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
    const start = StartJobRequest.safeParse({ format: 'mp4', model: null, webhook_url: null, background: null, exports: null });
    expect(start.success && start.data.model).toBe('service-original');
  });

  it('takes the client transparent formats and refuses lottie clearly', () => {
    for (const f of ['webm_vp9', 'mov_prores', 'png_sequence', 'pro_bundle', 'stacked_video', 'gif', 'webp', 'mask_video_inverted', 'hevc_alpha', 'apng']) {
      expect(Background.safeParse({ type: 'transparent', transparent_format: f }).success).toBe(true);
    }
    expect(issues(Background.safeParse({ type: 'transparent', transparent_format: 'lottie' }))).toContain(LOTTIE_UNSUPPORTED);
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

  it('dedupes against the primary output and caps unique outputs at 50', () => {
    const items = [
      { format: 'webm_vp9' as const, sizes: ['native' as const, 640, 640] },
      { format: 'gif' as const, sizes: null },
    ];
    expect(planExports(items, { format: 'webm_vp9', transform: undefined })).toEqual([
      { format: 'webm_vp9', transform: { max_width: 640 } },
      { format: 'gif', transform: undefined },
    ]);
    // Without a primary (batch-exports) the native WebM is an export of its own.
    expect(planExports(items)).toHaveLength(3);
    const many = [{ format: 'webm_vp9' as const, sizes: Array.from({ length: 50 }, (_, i) => 100 + i) }];
    expect(() => planExports(many, { format: 'webm_vp9', transform: undefined })).toThrow(/at most 50/);
    expect(planExports(many)).toHaveLength(50);
  });

  it('counts the 50 unique outputs after identical items are merged, wherever exports are given', () => {
    const identical = Array.from({ length: 51 }, () => ({ format: 'gif' as const, sizes: Array.from({ length: 101 }, () => 'native' as const) }));
    const background = { type: 'transparent', transparent_format: 'webm_vp9' };
    const start = StartJobRequest.safeParse({ background, exports: identical });
    expect(issues(start)).toEqual([]);
    expect(planExports(start.data!.exports!, { format: 'webm_vp9', transform: undefined })).toEqual([{ format: 'gif', transform: undefined }]);
    expect(issues(CreateBatchRequest.safeParse({ exports: identical }))).toEqual([]);
    expect(issues(ImageToVideoRequest.safeParse({ filename: 'a.png', content_type: 'image/png', background, exports: identical }))).toEqual([]);
  });

  it('requires a background when exports are given', () => {
    expect(StartJobRequest.safeParse({ exports: [{ format: 'gif' }] }).success).toBe(false);
  });
});

describe('toRecipe and the status echo', () => {
  it('defaults to a transparent VP9 WebM', () => {
    expect(toRecipe(null)).toEqual({ kind: 'transparent', format: 'webm_vp9' });
    expect(toRecipe(Background.parse({ type: 'transparent', transparent_format: null }))).toEqual({ kind: 'transparent', format: 'webm_vp9' });
  });

  it('maps colour, composition and blur', () => {
    expect(toRecipe(Background.parse({ type: 'color', color: '#112233', transform: { max_width: 640, reverse: null } }))).toEqual({
      kind: 'color',
      color: '#112233',
      exportFormat: 'mp4',
      transform: { max_width: 640 },
    });
    const comp = Background.parse({ type: 'composition', composition: { template: 'ai_ugc_ad', background_url: 'https://x.test/bg.jpg' } });
    expect(toRecipe(comp)).toMatchObject({ kind: 'composition', template: 'ai_ugc_ad', background: { url: 'https://x.test/bg.jpg' } });
    expect(toRecipe(Background.parse({ type: 'blur', blur_intensity: 30 }))).toMatchObject({ kind: 'blur', blur: { mode: 'background', intensity: 30, type: 'gaussian' } });
  });

  it('maps a dashboard upload to a storage key, which the public schema drops', () => {
    const uploaded = { type: 'composition', composition: { background_key: 'jobs/j/background.png', export_format: 'mov' } };
    expect(toRecipe(StoredBackground.parse(uploaded))).toMatchObject({ kind: 'composition', background: { key: 'jobs/j/background.png' }, exportFormat: 'mov' });
    expect(Background.safeParse(uploaded).error?.issues[0]?.path).toEqual(['composition', 'background_url']);
    // A key with a URL: the uploaded image wins.
    const both = StoredBackground.parse({ type: 'composition', composition: { background_key: 'jobs/j/background.png', background_url: 'https://x.test/a.png' } });
    expect(toRecipe(both)).toMatchObject({ background: { key: 'jobs/j/background.png' } });
  });

  it('keeps the status background to the classic shape and reports the rest in output_format', () => {
    const webp = Background.parse({ type: 'transparent', transparent_format: 'webp' });
    expect(classicBackground(webp)).toEqual({ type: 'transparent' });
    expect(outputFormatOf(webp)).toBe('webp');
    expect(classicBackground(Background.parse({ type: 'transparent', transparent_format: 'mov_prores' }))).toEqual({ type: 'transparent', transparent_format: 'mov_prores' });
    const comp = Background.parse({ type: 'composition', composition: { background_url: 'https://x.test/a.mp4', export_format: 'webm' } });
    expect(classicBackground(comp)).toBeNull();
    expect(outputFormatOf(comp)).toBe('webm');
  });
});

describe('sticker exports', () => {
  it('take a sticker format, with crop, fps 12–30 and reverse only', () => {
    expect(ExportItem.safeParse({ format: 'telegram_video_v1', transform: { fps: 12, reverse: true, crop: { x: 0, y: 0, width: 100, height: 100 } } }).success).toBe(true);
    expect(issues(ExportItem.safeParse({ format: 'telegram_video_v1', transform: { fps: 60 } }))).toEqual(["a sticker's frame rate must be from 12 to 30 fps (got 60)"]);
    expect(issues(ExportItem.safeParse({ format: 'slack_gif_v1', transform: { fps: 11 } }))).toHaveLength(1);
    expect(issues(ExportItem.safeParse({ format: 'discord_gif_v1', transform: { max_width: 200 } }))).toEqual([
      'max_width is not supported for sticker formats (discord_gif_v1 has a fixed canvas)',
    ]);
    expect(issues(ExportItem.safeParse({ format: 'whatsapp_webp_v1', sizes: ['native'] }))).toEqual([
      'sizes are not supported for sticker formats (whatsapp_webp_v1 has a fixed canvas)',
    ]);
    // A sticker is not a start's transparent_format.
    expect(Background.safeParse({ type: 'transparent', transparent_format: 'telegram_video_v1' }).success).toBe(false);
  });

  it('refuse sizes on a single sticker export with 400, as every field a sticker format refuses', () => {
    for (const body of [{ format: 'slack_gif_v1', sizes: ['native'] }, { sticker_profile: 'telegram_video_v1', sizes: [256] }]) {
      expect(issues(CreateExportRequest.safeParse(body))).toEqual([expect.stringMatching(/^sizes are not supported for sticker formats/)]);
    }
    expect(CreateExportRequest.safeParse({ format: 'slack_gif_v1', sizes: null }).success).toBe(true);
  });

  it('refuse an unknown format with 400, sizes or not, never a crash', () => {
    for (const body of [{ format: 'lottie' }, { format: 'lottie', sizes: [320] }]) {
      expect(CreateExportRequest.safeParse(body).success).toBe(false);
      expect(ExportItem.safeParse(body).success).toBe(false);
    }
  });

  it('take one size on a single export of another format, and refuse what a single file cannot be', () => {
    expect(CreateExportRequest.parse({ format: 'webm_vp9', sizes: [640] })).toMatchObject({ format: 'webm_vp9', transform: { max_width: 640 } });
    expect(CreateExportRequest.parse({ format: 'webm_vp9', sizes: ['native'], transform: { fps: 12 } }).transform).toEqual({ fps: 12 });
    expect(issues(CreateExportRequest.safeParse({ format: 'webm_vp9', sizes: [640, 320] }))).toEqual([
      'a single export makes one file: give one size, or use batch-exports for several',
    ]);
    expect(issues(CreateExportRequest.safeParse({ format: 'webm_vp9', sizes: [640], transform: { max_width: 320 } }))).toEqual([
      'give the width once: in sizes or in transform.max_width',
    ]);
    expect(issues(CreateExportRequest.safeParse({ format: 'webp', sizes: [320] }))).toEqual(['numeric sizes are not supported for webp; use "native"']);
  });

  it('accept sticker_profile as the older name of format', () => {
    expect(CreateExportRequest.parse({ sticker_profile: 'signal_apng_v1' })).toMatchObject({ format: 'signal_apng_v1' });
    expect(CreateExportRequest.parse({ format: 'signal_apng_v1', sticker_profile: 'signal_apng_v1' })).toMatchObject({ format: 'signal_apng_v1' });
    expect(issues(CreateExportRequest.safeParse({ format: 'gif', sticker_profile: 'signal_apng_v1' }))).toEqual(['format and sticker_profile name different formats; give one of them']);
    expect(issues(CreateExportRequest.safeParse({ sticker_profile: 'slack_gif_v1', transform: { max_width: 64 } }))).toHaveLength(1);
  });
});
