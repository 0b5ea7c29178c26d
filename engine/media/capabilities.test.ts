import { describe, expect, it } from 'vitest';
import { encoderPixelFormats, ffmpegVersion, hevcAlphaAdvertised, hevcLayerCounts } from './capabilities';

const help51 = 'Encoder libx265 [libx265 H.265 / HEVC]:\n    Supported pixel formats: yuv420p yuvj420p yuv444p gbrp gray\n';
const help71 = 'Encoder libx265:\n    Supported pixel formats: yuv420p yuva420p yuv420p10le yuva420p10le gray\n';

describe('capabilities', () => {
  it('reads ffmpeg versions', () => {
    expect(ffmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright')).toEqual([5, 1]);
    expect(ffmpegVersion('ffmpeg version n7.1 Copyright')).toEqual([7, 1]);
    expect(ffmpegVersion('ffmpeg version N-118000-g123 Copyright')).toBeNull();
  });

  it('reads encoder pixel formats', () => {
    expect(encoderPixelFormats(help51)).toEqual(['yuv420p', 'yuvj420p', 'yuv444p', 'gbrp', 'gray']);
    expect(encoderPixelFormats('nothing')).toEqual([]);
  });

  it('sees HEVC alpha only on FFmpeg 7.1+ whose libx265 takes yuva420p', () => {
    expect(hevcAlphaAdvertised('ffmpeg version 5.1.9', help51)).toBe(false);
    expect(hevcAlphaAdvertised('ffmpeg version 7.0.2', help71)).toBe(false);
    expect(hevcAlphaAdvertised('ffmpeg version 7.1.1', help71)).toBe(true);
    expect(hevcAlphaAdvertised('ffmpeg version 8.0', help71)).toBe(true);
    expect(hevcAlphaAdvertised('ffmpeg version N-1-gabc', help71)).toBe(true);
  });

  it('counts HEVC NAL units per layer', () => {
    // VPS (type 32, layer 0), a slice on layer 0, a slice on layer 1.
    const nal = (type: number, layer: number) => [0, 0, 0, 1, (type << 1) | (layer >> 5), ((layer & 31) << 3) | 1, 0xaa];
    const stream = new Uint8Array([...nal(32, 0), ...nal(1, 0), ...nal(1, 1)]);
    expect([...hevcLayerCounts(stream)]).toEqual([
      [0, 2],
      [1, 1],
    ]);
  });
});
