import { describe, expect, it } from 'vitest';
import { imageLayers, lottieAsset, lottieHead } from './lottie';

describe('the Lottie document', () => {
  it('shows each embedded frame from its index until the next one, the last until the end', () => {
    const layers = imageLayers([0, 1, 4, 9], 10);
    expect(layers.map((l) => [l.refId, l.ip, l.op])).toEqual([
      ['frame_0', 0, 1],
      ['frame_1', 1, 4],
      ['frame_4', 4, 9],
      ['frame_9', 9, 10],
    ]);
    expect(layers.map((l) => l.ind)).toEqual([1, 2, 3, 4]);
    expect(layers[0]).toMatchObject({
      ty: 2,
      st: 0,
      sr: 1,
      ks: { o: { a: 0, k: 100 }, s: { a: 0, k: [100, 100, 100] } },
    });
  });

  it('drops frames past the end, and embeds images as data URIs of the canvas size', () => {
    expect(imageLayers([0, 5, 12], 10).map((l) => [l.ip, l.op])).toEqual([
      [0, 5],
      [5, 10],
    ]);
    const asset = lottieAsset(3, { width: 4, height: 2, image: 'png' }, 'AQID');
    expect(asset).toEqual({
      id: 'frame_3',
      w: 4,
      h: 2,
      u: '',
      p: 'data:image/png;base64,AQID',
      e: 1,
    });
  });

  it('writes a head that, closed with assets and layers, is a Bodymovin document', () => {
    const plan = {
      directory: '/x',
      image: 'webp' as const,
      width: 4,
      height: 2,
      fps: 29.97,
      frames: 3,
    };
    const doc = JSON.parse(
      `${lottieHead(plan)},"assets":[],"layers":${JSON.stringify(imageLayers([0], 3))}}`,
    ) as Record<string, unknown>;
    expect(doc).toMatchObject({ v: '5.7.4', fr: 29.97, ip: 0, op: 3, w: 4, h: 2, ddd: 0 });
  });
});
