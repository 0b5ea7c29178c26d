import { describe, expect, it } from 'vitest';
import { asAnimatedWebp, readApng, readGifHeader, readWebp, stillWebp } from './containers';

const le = (n: number, bytes: number) =>
  Array.from({ length: bytes }, (_, i) => (n >> (8 * i)) & 0xff);
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const str = (s: string) => [...s].map((c) => c.charCodeAt(0));
const riff = (type: string, data: number[]) => [
  ...str(type),
  ...le(data.length, 4),
  ...data,
  ...(data.length & 1 ? [0] : []),
];

function animatedWebp(): Uint8Array {
  // animation + alpha, 100x50
  const vp8x = riff('VP8X', [0x12, 0, 0, 0, ...le(99, 3), ...le(49, 3)]);
  const anim = riff('ANIM', [...le(0xffffffff, 4), ...le(0, 2)]);
  const frame = (x: number, dur: number) =>
    riff('ANMF', [
      ...le(x / 2, 3),
      ...le(0, 3),
      ...le(9, 3),
      ...le(19, 3),
      ...le(dur, 3),
      0,
      ...riff('ALPH', [1, 2, 3]),
      ...riff('VP8 ', [4, 5]),
    ]);
  const body = [...str('WEBP'), ...vp8x, ...anim, ...frame(0, 40), ...frame(10, 41)];
  return new Uint8Array([...str('RIFF'), ...le(body.length, 4), ...body]);
}

describe('readWebp', () => {
  it('reads canvas, loop, frame rectangles, durations and alpha', () => {
    const w = readWebp(animatedWebp());
    expect(w).toMatchObject({ width: 100, height: 50, loopCount: 0, hasAlpha: true });
    expect(w.frames).toEqual([
      { x: 0, y: 0, width: 10, height: 20, duration: 40, hasAlpha: true },
      { x: 10, y: 0, width: 10, height: 20, duration: 41, hasAlpha: true },
    ]);
  });

  it('rewraps a frame as a still extended WebP with alpha', () => {
    const w = readWebp(animatedWebp());
    const still = stillWebp(w.frames[1]!, w.frameChunks[1]!);
    const text = String.fromCharCode(...still);
    expect(text.slice(0, 4)).toBe('RIFF');
    expect(still[4]! | (still[5]! << 8)).toBe(still.length - 8);
    expect(text.slice(8, 16)).toBe('WEBPVP8X');
    expect(still[20]).toBe(0x10);
    expect(text.indexOf('ALPH')).toBeLessThan(text.indexOf('VP8 '));
  });

  it(
    'refuses a still WebP as no animation, and asAnimatedWebp makes ' +
      'it a looping animation of its one frame',
    () => {
      const w = readWebp(animatedWebp());
      // What libwebp writes for an animation whose frames are all the same: one still image.
      const still = stillWebp({ width: 100, height: 50 }, w.frameChunks[0]!);
      expect(() => readWebp(still)).toThrow(/a still WebP, not an animation/);
      const animated = asAnimatedWebp(still, 3000)!;
      expect(readWebp(animated)).toMatchObject({
        width: 100,
        height: 50,
        loopCount: 0,
        hasAlpha: true,
        frames: [{ x: 0, y: 0, width: 100, height: 50, duration: 3000, hasAlpha: true }],
      });
      expect(readWebp(animated).frameChunks[0]).toEqual(w.frameChunks[0]);
      expect(asAnimatedWebp(animatedWebp(), 3000)).toBeNull();
    },
  );

  it('rejects what is not a WebP', () => {
    expect(() => readWebp(new Uint8Array(str('RIFF0000WAVE')))).toThrow(/not a WebP/);
  });
});

describe('readApng', () => {
  const chunk = (type: string, data: number[]) => [
    ...be32(data.length),
    ...str(type),
    ...data,
    0,
    0,
    0,
    0,
  ];
  const fctl = (delayNum: number, delayDen: number) =>
    chunk('fcTL', [
      ...be32(0),
      ...be32(64),
      ...be32(32),
      ...be32(0),
      ...be32(0),
      delayNum >> 8,
      delayNum & 0xff,
      delayDen >> 8,
      delayDen & 0xff,
      0,
      0,
    ]);
  const png = new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', [...be32(64), ...be32(32), 8, 6, 0, 0, 0]),
    ...chunk('acTL', [...be32(2), ...be32(0)]),
    ...fctl(1, 25),
    ...chunk('IDAT', [1]),
    ...fctl(4, 0),
    ...chunk('IEND', []),
  ]);

  it('reads plays, colour type and frame delays', () => {
    const a = readApng(png);
    expect(a).toMatchObject({ width: 64, height: 32, loopCount: 0, colorType: 6, hasAlpha: true });
    expect(a.frames.map((f) => f.duration)).toEqual([40, 40]);
  });

  it('rejects a still PNG', () => {
    expect(() => readApng(png.filter((_, i) => i < 8 + 25 || i >= 8 + 25 + 20))).toThrow(/no acTL/);
  });
});

describe('readGifHeader', () => {
  it('reads the screen size and the NETSCAPE loop count', () => {
    const gif = new Uint8Array([
      ...str('GIF89a'),
      ...le(320, 2),
      ...le(240, 2),
      0,
      0,
      0,
      0x21,
      0xff,
      11,
      ...str('NETSCAPE2.0'),
      3,
      1,
      0,
      0,
      0,
    ]);
    expect(readGifHeader(gif)).toEqual({ width: 320, height: 240, loopCount: 0 });
  });
});
