import { describe, expect, it } from 'vitest';
import { ImageToVideoRequest, multipartOptions, stillFrames, stillOptions } from './image-to-video';

const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('image-to-video requests', () => {
  it('take an image upload or an image_url, with defaults 3 s at 24 fps, no motion', () => {
    const r = ImageToVideoRequest.parse({ filename: 'me.png', content_type: 'image/png' });
    expect(stillOptions(r)).toEqual({
      durationSeconds: 3,
      fps: 24,
      motion: 'none',
      model: 'service-original',
      background: null,
      exports: null,
    });
    expect(stillFrames(stillOptions(r))).toBe(72);
    expect(
      ImageToVideoRequest.safeParse({
        image_url: 'https://example.com/a.jpg',
        motion: 'bounce',
        duration_seconds: 10,
        fps: 30,
      }).success,
    ).toBe(true);
  });

  it('refuse other types, out-of-range options, and exports without a background', () => {
    expect(
      issues(ImageToVideoRequest.safeParse({ filename: 'a.gif', content_type: 'image/gif' })),
    ).toContain('content_type must be one of image/png, image/jpeg, image/webp');
    expect(issues(ImageToVideoRequest.safeParse({}))).toContain(
      'One of (filename with content_type), image_url or a multipart file is required',
    );
    for (const bad of [
      { duration_seconds: 0.5 },
      { duration_seconds: 11 },
      { fps: 60 },
      { fps: 11 },
      { motion: 'spin' },
    ]) {
      expect(
        ImageToVideoRequest.safeParse({ image_url: 'https://example.com/a.png', ...bad }).success,
        JSON.stringify(bad),
      ).toBe(false);
    }
    expect(
      issues(
        ImageToVideoRequest.safeParse({
          image_url: 'https://example.com/a.png',
          exports: [{ format: 'telegram_video_v1' }],
        }),
      ),
    ).toContain('background is required when exports are given');
  });

  it('read multipart text fields, background and exports as JSON', () => {
    const o = multipartOptions({
      duration_seconds: '2',
      fps: '12',
      motion: 'zoom_in',
      background: '{"type":"transparent"}',
      exports: '[{"format":"slack_gif_v1"}]',
    });
    expect(stillOptions(o)).toMatchObject({
      durationSeconds: 2,
      fps: 12,
      motion: 'zoom_in',
      background: { type: 'transparent' },
      exports: [{ format: 'slack_gif_v1' }],
    });
    expect(() => multipartOptions({ exports: '[' })).toThrow();
  });
});
