import { describe, expect, it } from 'vitest';
import type { Recipe } from '../../../engine/media/recipe';
import { metadataColumn, recipeColumn, storedTransform, transformColumn } from './columns';

const recipes: Recipe[] = [
  {
    kind: 'transparent',
    format: 'webm_vp9',
    transform: { crop: { x: 0, y: 0, width: 64, height: 64 }, fps: 12 },
  },
  {
    kind: 'transparent',
    format: 'lottie',
    lottie: { preset: 'small', smartSampling: true, threshold: null },
  },
  { kind: 'color', color: '#00FF00', exportFormat: 'mp4' },
  {
    kind: 'composition',
    background: { key: 'jobs/j/background.png' },
    template: 'centered',
    backgroundAudio: false,
    backgroundAudioVolume: 1,
    exportFormat: 'mp4',
    crf: 20,
    preset: 'fast',
  },
  {
    kind: 'blur',
    blur: { mode: 'background', intensity: 50, type: 'gaussian' },
    exportFormat: 'webm',
  },
];

describe("the Output's JSON columns", () => {
  it('store every kind of recipe and read it back the same', () => {
    for (const recipe of recipes)
      expect(recipeColumn.read(recipeColumn.write(recipe))).toEqual(recipe);
  });

  it('refuse a recipe of an unknown kind or format', () => {
    expect(() => recipeColumn.read('{"kind":"sepia","exportFormat":"mp4"}')).toThrow(
      /Output\.recipeJson/,
    );
    expect(() => recipeColumn.read('{"kind":"transparent","format":"bmp"}')).toThrow(
      /Output\.recipeJson/,
    );
  });

  it('keep the transform beside the recipe, null where there is none', () => {
    const transform = { max_width: 320, reverse: true };
    expect(storedTransform({ transformJson: transformColumn.write(transform) })).toEqual(transform);
    expect(storedTransform({ transformJson: null })).toBeNull();
  });

  it('serve metadata stored before duration_seconds with it', () => {
    const metadata = {
      validated: true,
      format: 'vp9',
      profile: 'webm_vp9',
      container: 'webm',
      bytes: 10,
      width: 64,
      height: 64,
      fps: 24,
      frame_count: 24,
      loop: false,
      loop_count: null,
      has_alpha: true,
      alpha: 'alpha_mode',
      alpha_inverted: false,
      alpha_range: [0, 255],
      has_audio: false,
      pixel_format: 'yuva420p',
      sha256: 'ab',
    };
    expect(metadataColumn.read(JSON.stringify({ ...metadata, duration_seconds: 1 }))).toEqual({
      ...metadata,
      duration_seconds: 1,
    });
    expect(metadataColumn.read(JSON.stringify({ ...metadata, duration: 2 }))).toEqual({
      ...metadata,
      duration_seconds: 2,
    });
  });
});
