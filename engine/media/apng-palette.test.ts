import UPNG from 'upng-js';
import { describe, expect, it } from 'vitest';
import { frameDelays, quantizedApng, unpremultiply } from './apng-palette';
import { readApng } from './containers';

describe('lossy APNG', () => {
  it('turns premultiplied palette colours back into straight colour', () => {
    // 0xAABBGGRR: red 100 premultiplied at alpha 128 is red 199 straight.
    expect(unpremultiply(((128 << 24) | 100) >>> 0)).toBe(((128 << 24) | 199) >>> 0);
    expect(unpremultiply(0x00ffffff)).toBe(0);
    expect(unpremultiply(0xff102030)).toBe(0xff102030);
  });

  it('keeps whole-millisecond delays on the exact timeline', () => {
    const d = frameDelays(90, 30);
    expect(d.slice(0, 3)).toEqual([33, 34, 33]);
    expect(d.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(frameDelays(25, 12.5).every((x) => x === 80)).toBe(true);
  });

  it('writes a looping palette APNG whose tRNS keeps partial alpha', () => {
    const [w, h, n] = [16, 8, 3];
    const raw = new Uint8Array(w * h * 4 * n);
    for (let f = 0; f < n; f++)
      for (let i = 0; i < w * h; i++) {
        const at = (f * w * h + i) * 4;
        raw[at] = (i * 7 + f * 40) & 255;
        raw[at + 1] = 200;
        raw[at + 3] = (i % w) * 16; // 0 … 240: transparent to nearly opaque
      }
    const apng = readApng(
      quantizedApng(raw, { width: w, height: h, fpsRational: '12/1', colours: 32 }),
    );
    expect(apng).toMatchObject({ width: w, height: h, loopCount: 0, hasAlpha: true, colorType: 3 });
    expect(apng.frames.map((f) => Math.round(f.duration))).toEqual([83, 84, 83]);
  });

  it(
    'keeps fully opaque and fully transparent pixels where few ' +
      'colours merge the inside with the soft edge',
    () => {
      // A small subject: an opaque disc of many colours in a soft ring, on a transparent canvas.
      const [w, h, n] = [64, 64, 4];
      const raw = new Uint8Array(w * h * 4 * n);
      for (let f = 0; f < n; f++)
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const at = ((f * h + y) * w + x) * 4;
            const d = Math.hypot(x - 32, y - 32);
            raw.set(
              [
                (x * 97 + y * 31 + f * 7) & 255,
                (x * y * 13) & 255,
                (y * 53 + x * 5) & 255,
                d < 8 ? 255 : d < 24 ? Math.round(255 - (d - 8) * 4) : 0,
              ],
              at,
            );
          }
      const decoded = UPNG.toRGBA8(
        UPNG.decode(
          quantizedApng(raw, { width: w, height: h, fpsRational: '12/1', colours: 32 }).slice()
            .buffer,
        ),
      );
      const alphas = new Set(
        decoded.flatMap((frame) => [...new Uint8Array(frame).filter((_, i) => i % 4 === 3)]),
      );
      expect(alphas.has(0) && alphas.has(255)).toBe(true);
      expect([...alphas].some((a) => a > 0 && a < 255)).toBe(true);
    },
  );
});
