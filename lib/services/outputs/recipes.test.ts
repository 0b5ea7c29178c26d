import { describe, expect, it } from 'vitest';
import { Background, StoredBackground } from '../../schemas/background';
import { CreateBatchRequest } from '../../schemas/exports';
import { ImageToVideoRequest } from '../../schemas/image-to-video';
import { StartJobRequest } from '../../schemas/jobs';
import { classicBackground, outputFormatOf, planExports, toRecipe } from './recipes';

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('planExports', () => {
  it('dedupes against the primary output and caps the unique outputs besides it at 50', () => {
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
    // 50 unique exports besides a distinct primary: accepted; 51: refused, with or without a
    // primary.
    const sizes = (n: number) => [
      { format: 'webm_vp9' as const, sizes: Array.from({ length: n }, (_, i) => 100 + i) },
    ];
    expect(planExports(sizes(50), { format: 'webm_vp9', transform: undefined })).toHaveLength(50);
    expect(planExports(sizes(50))).toHaveLength(50);
    expect(() => planExports(sizes(51), { format: 'webm_vp9', transform: undefined })).toThrow(
      'at most 50 unique outputs are allowed (requested 51)',
    );
    expect(() => planExports(sizes(51))).toThrow(/at most 50/);
    // One of them the same as the primary: merged into it, so 50 remain.
    expect(
      planExports([...sizes(50), { format: 'webm_vp9', sizes: ['native'] }], {
        format: 'webm_vp9',
        transform: undefined,
      }),
    ).toHaveLength(50);
  });

  it(
    'counts the 50 unique outputs after identical items are merged, ' +
      'wherever exports are given',
    () => {
      const identical = Array.from({ length: 51 }, () => ({
        format: 'gif' as const,
        sizes: Array.from({ length: 101 }, () => 'native' as const),
      }));
      const background = { type: 'transparent', transparent_format: 'webm_vp9' };
      const start = StartJobRequest.safeParse({ background, exports: identical });
      expect(issues(start)).toEqual([]);
      expect(
        planExports(start.data!.exports!, { format: 'webm_vp9', transform: undefined }),
      ).toEqual([{ format: 'gif', transform: undefined }]);
      expect(issues(CreateBatchRequest.safeParse({ exports: identical }))).toEqual([]);
      expect(
        issues(
          ImageToVideoRequest.safeParse({
            filename: 'a.png',
            content_type: 'image/png',
            background,
            exports: identical,
          }),
        ),
      ).toEqual([]);
    },
  );
});

describe('background.options.preset', () => {
  it(
    'is one of the engine presets in a request, and a stored start ' + 'with another reads as none',
    () => {
      expect(
        issues(Background.safeParse({ type: 'transparent', options: { preset: 'ultra' } })),
      ).toEqual(['background.options.preset must be one of: balanced, fast, fine-edges']);
      expect(
        Background.parse({ type: 'transparent', options: { preset: 'fast' } }).options?.preset,
      ).toBe('fast');
      expect(
        StoredBackground.parse({
          type: 'transparent',
          options: { preset: 'ultra', threshold: 0.5 },
        }).options,
      ).toEqual({ preset: null, threshold: 0.5 });
    },
  );
});

describe('toRecipe and the status echo', () => {
  it('defaults to a transparent VP9 WebM', () => {
    expect(toRecipe(null)).toEqual({ kind: 'transparent', format: 'webm_vp9' });
    expect(toRecipe(Background.parse({ type: 'transparent', transparent_format: null }))).toEqual({
      kind: 'transparent',
      format: 'webm_vp9',
    });
  });

  it('maps colour, composition and blur', () => {
    expect(
      toRecipe(
        Background.parse({
          type: 'color',
          color: '#112233',
          transform: { max_width: 640, reverse: null },
        }),
      ),
    ).toEqual({
      kind: 'color',
      color: '#112233',
      exportFormat: 'mp4',
      transform: { max_width: 640 },
    });
    const comp = Background.parse({
      type: 'composition',
      composition: { template: 'ai_ugc_ad', background_url: 'https://x.test/bg.jpg' },
    });
    expect(toRecipe(comp)).toMatchObject({
      kind: 'composition',
      template: 'ai_ugc_ad',
      background: { url: 'https://x.test/bg.jpg' },
    });
    expect(toRecipe(Background.parse({ type: 'blur', blur_intensity: 30 }))).toMatchObject({
      kind: 'blur',
      blur: { mode: 'background', intensity: 30, type: 'gaussian' },
    });
  });

  it("maps the n8n templates' h264 container to an H.264 MP4 with its x264 preset and crf", () => {
    const composition = {
      template: 'centered',
      background_url: 'https://x.test/bg.jpg',
      export_format: 'h264',
      export_preset: 'medium',
      export_crf: 23,
    };
    expect(toRecipe(Background.parse({ type: 'composition', composition }))).toMatchObject({
      exportFormat: 'mp4',
      preset: 'medium',
      crf: 23,
    });
    expect(outputFormatOf(Background.parse({ type: 'composition', composition }))).toBe('mp4');
    expect(
      toRecipe(Background.parse({ type: 'blur', composition: { export_preset: 'slow' } })),
    ).toMatchObject({ exportFormat: 'mp4', preset: 'slow' });
  });

  it('maps a dashboard upload to a storage key, which the public schema drops', () => {
    const uploaded = {
      type: 'composition',
      composition: { background_key: 'jobs/j/background.png', export_format: 'mov' },
    };
    expect(toRecipe(StoredBackground.parse(uploaded))).toMatchObject({
      kind: 'composition',
      background: { key: 'jobs/j/background.png' },
      exportFormat: 'mov',
    });
    expect(Background.safeParse(uploaded).error?.issues[0]?.path).toEqual([
      'composition',
      'background_url',
    ]);
    // A key with a URL: the uploaded image wins.
    const both = StoredBackground.parse({
      type: 'composition',
      composition: {
        background_key: 'jobs/j/background.png',
        background_url: 'https://x.test/a.png',
      },
    });
    expect(toRecipe(both)).toMatchObject({ background: { key: 'jobs/j/background.png' } });
  });

  it(
    'keeps the status background to the classic shape and reports ' + 'the rest in output_format',
    () => {
      const webp = Background.parse({ type: 'transparent', transparent_format: 'webp' });
      expect(classicBackground(webp)).toEqual({ type: 'transparent' });
      expect(outputFormatOf(webp)).toBe('webp');
      expect(
        classicBackground(
          Background.parse({ type: 'transparent', transparent_format: 'mov_prores' }),
        ),
      ).toEqual({ type: 'transparent', transparent_format: 'mov_prores' });
      const comp = Background.parse({
        type: 'composition',
        composition: { background_url: 'https://x.test/a.mp4', export_format: 'webm' },
      });
      expect(classicBackground(comp)).toBeNull();
      expect(outputFormatOf(comp)).toBe('webm');
    },
  );
});
