import { describe, expect, it } from 'vitest';
import { fpsMultiplier, priceJob } from './pricing';

describe('priceJob', () => {
  it('charges ceil(rate × duration) at standard frame rates', () => {
    expect(priceJob({ model: 'service-original', durationSeconds: 10, fps: 25 })).toBe(10);
    expect(priceJob({ model: 'service-light', durationSeconds: 4, fps: 30 })).toBe(3);
    expect(priceJob({ model: 'service-human', durationSeconds: 7.3, fps: 25 })).toBe(6);
    expect(priceJob({ model: 'service-pro', durationSeconds: 2, fps: 29.97 })).toBe(6);
  });

  it('multiplies by fps/30 above 30 fps', () => {
    expect(fpsMultiplier(30)).toBe(1);
    expect(fpsMultiplier(60)).toBe(2);
    expect(priceJob({ model: 'service-original', durationSeconds: 10, fps: 60 })).toBe(20);
    expect(priceJob({ model: 'service-light', durationSeconds: 10, fps: 50 })).toBe(13); // 12.5
  });

  it('adds the blur rate to the model rate', () => {
    expect(priceJob({ model: 'service-original', durationSeconds: 5, fps: 24, blur: true })).toBe(
      10,
    );
    // 3.5
    expect(priceJob({ model: 'service-light', durationSeconds: 2, fps: 24, blur: true })).toBe(4);
  });

  it('ignores float noise and never charges zero', () => {
    expect(priceJob({ model: 'service-light', durationSeconds: 4.0000000001, fps: 25 })).toBe(3);
    expect(priceJob({ model: 'service-light', durationSeconds: 0.04, fps: 25 })).toBe(1);
  });
});
