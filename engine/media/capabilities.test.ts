import { describe, expect, it } from 'vitest';
import { hevcLayerCounts } from './capabilities';

describe('capabilities', () => {
  it('counts HEVC NAL units per layer', () => {
    // VPS (type 32, layer 0), a slice on layer 0, a slice on layer 1.
    const nal = (type: number, layer: number) => [
      0,
      0,
      0,
      1,
      (type << 1) | (layer >> 5),
      ((layer & 31) << 3) | 1,
      0xaa,
    ];
    const stream = new Uint8Array([...nal(32, 0), ...nal(1, 0), ...nal(1, 1)]);
    expect([...hevcLayerCounts(stream)]).toEqual([
      [0, 2],
      [1, 1],
    ]);
  });
});
