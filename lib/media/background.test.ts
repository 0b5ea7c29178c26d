import { describe, expect, it } from 'vitest';
import { sniffImage } from './background';

const bytes = (...b: (number | string)[]) =>
  new Uint8Array(
    b.flatMap((x) => (typeof x === 'string' ? [...x].map((c) => c.charCodeAt(0)) : [x])),
  );

describe('sniffImage', () => {
  it('recognises PNG, JPEG and WebP by their magic bytes', () => {
    expect(sniffImage(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe('png_pipe');
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg_pipe');
    expect(sniffImage(bytes('RIFF', 1, 2, 3, 4, 'WEBPVP8 '))).toBe('webp_pipe');
  });
  it('leaves everything else to the video probe', () => {
    expect(sniffImage(bytes(0, 0, 0, 0x20, 'ftypisom'))).toBeNull();
    expect(sniffImage(bytes('RIFF', 1, 2, 3, 4, 'AVI LIST'))).toBeNull();
    expect(sniffImage(bytes('#EXTM3U\n'))).toBeNull();
  });
});
