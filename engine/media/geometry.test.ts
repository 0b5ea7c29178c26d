import { describe, expect, it } from 'vitest';
import {
  cropFilters,
  finishFilters,
  fitWidth,
  gifRate,
  outputGeometry,
  parseRational,
} from './geometry';

const info = { width: 1280, height: 720, fpsRational: '24/1' };

describe('outputGeometry', () => {
  it('keeps the source when there is no transform', () => {
    const g = outputGeometry(info, 247, undefined);
    expect(g).toMatchObject({
      crop: null,
      width: 1280,
      height: 720,
      fps: 24,
      frames: 247,
      retimed: false,
      reverse: false,
    });
    expect(g.duration).toBeCloseTo(247 / 24, 9);
    expect(cropFilters(g)).toEqual([]);
    expect(finishFilters(g, info)).toEqual([]);
  });

  it('clamps a crop to the frame and to even sizes, then fits max_width', () => {
    const g = outputGeometry(info, 240, {
      crop: { x: 1000, y: -5, width: 999, height: 301 },
      max_width: 101,
    });
    expect(g.crop).toEqual({ x: 1000, y: 0, width: 280, height: 300 });
    expect(g.width).toBe(100);
    expect(g.height).toBe(106);
    expect(cropFilters(g)).toEqual(['crop=280:300:1000:0']);
    expect(finishFilters(g, { width: 280, height: 300 })).toEqual([
      'scale=100:106:flags=bicubic',
      'setsar=1',
    ]);
  });

  it('drops the last row of odd-sized sources instead of rescaling them', () => {
    const g = outputGeometry({ width: 720, height: 405, fpsRational: '25/1' }, 100, undefined);
    expect(g.crop).toEqual({ x: 0, y: 0, width: 720, height: 404 });
    expect(finishFilters(g, { width: 720, height: 404 })).toEqual([]);
  });

  it('retimes and reverses after scaling', () => {
    const g = outputGeometry({ width: 640, height: 360, fpsRational: '30000/1001' }, 300, {
      fps: 12,
      reverse: true,
      max_width: 320,
    });
    expect(g.frames).toBe(Math.round((300 / (30000 / 1001)) * 12));
    expect(finishFilters(g, { width: 640, height: 360 })).toEqual([
      'scale=320:180:flags=bicubic',
      'setsar=1',
      'fps=12/1',
      'reverse',
    ]);
  });

  it('snaps GIF rates to whole-centisecond delays', () => {
    expect(gifRate(24)).toBe('100/4');
    expect(gifRate(30)).toBe('100/3');
    expect(gifRate(60)).toBe('100/2');
    const g = outputGeometry(info, 240, undefined, { snapToGifRate: true });
    expect(g.fps).toBe(25);
    expect(g.frames).toBe(250);
  });

  it('parses rationals and fits widths', () => {
    expect(parseRational('30000/1001')).toBeCloseTo(29.97, 2);
    expect(() => parseRational('0/0')).toThrow();
    expect(fitWidth(1920, 1080, 1280)).toEqual({ width: 1280, height: 720 });
    expect(fitWidth(641, 361, undefined)).toEqual({ width: 640, height: 360 });
  });
});
