import { describe, expect, it } from 'vitest';
import { assertTransformFits } from './transform-bounds';

const video = { width: 1280, height: 720, duration: 4 };
const check =
  (t: Parameters<typeof assertTransformFits>[0], source = video) =>
  () =>
    assertTransformFits(t, source, 'background.transform');

describe('assertTransformFits', () => {
  it('accepts no transform, a crop inside the frame, the whole frame, and any max_width', () => {
    expect(check(undefined)).not.toThrow();
    expect(check({ crop: { x: 0, y: 0, width: 1280, height: 720 } })).not.toThrow();
    expect(
      check({
        crop: { x: 100.5, y: 20, width: 640, height: 360 },
        max_width: 8192,
        fps: 12,
        reverse: true,
      }),
    ).not.toThrow();
  });

  it.each([
    [
      { x: 1e308, y: 0, width: 10, height: 10 },
      /^Invalid background\.transform\.crop: it must lie inside the 1280x720 video$/,
    ],
    [{ x: 0, y: 0, width: 1e308, height: 1e308 }, /inside the 1280x720 video/],
    [{ x: 1200, y: 0, width: 100, height: 100 }, /inside the 1280x720 video/],
    [{ x: 0, y: 700, width: 100, height: 40 }, /inside the 1280x720 video/],
    [{ x: 0, y: 0, width: 1, height: 100 }, /at least 2 pixels/],
  ])('refuses the crop %o', (crop, message) => {
    expect(check({ crop })).toThrow(message);
    try {
      check({ crop })();
    } catch (e) {
      expect(e).toMatchObject({ kind: 'invalid' });
    }
  });

  it('refuses a frame rate that leaves a short video without a frame', () => {
    expect(check({ fps: 1 }, { ...video, duration: 0.4 })).toThrow(
      'Invalid background.transform.fps: 1 fps leaves a 0.40 s video without a single frame',
    );
    expect(check({ fps: 3 }, { ...video, duration: 0.4 })).not.toThrow();
  });
});
