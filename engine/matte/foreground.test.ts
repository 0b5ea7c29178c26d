import { describe, expect, it } from 'vitest';
import { estimateForeground, SOFT_BAND, type MattedFrame } from './foreground';

const W = 320;
const H = 240;

/** A textured subject (a disc with an 8-pixel soft edge) over a saturated background. */
function scene(background: (x: number, y: number) => [number, number, number]) {
  const fg = new Uint8Array(W * H * 3);
  const alpha = new Uint8Array(W * H);
  const rgba = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const subject: [number, number, number] = [
        170 + 30 * Math.sin(x / 7),
        120 + 25 * Math.cos(y / 9),
        80 + ((x + y) % 20),
      ];
      const d = Math.hypot(x - 160, y - 120);
      const a = Math.min(1, Math.max(0, (90 - d) / 8));
      const bg = background(x, y);
      alpha[p] = Math.round(a * 255);
      const a8 = alpha[p] / 255;
      for (let c = 0; c < 3; c++) {
        fg[p * 3 + c] = Math.round(subject[c]!);
        rgba[p * 4 + c] = Math.round(a8 * fg[p * 3 + c]! + (1 - a8) * bg[c]!);
      }
      rgba[p * 4 + 3] = alpha[p]!;
    }
  }
  return { fg, alpha, rgba };
}

/**
 * Mean absolute error per channel against the true subject colour over the soft band, weighted by
 * alpha: how much of it a composite over a new background shows.
 */
function bandError(
  frame: Uint8ClampedArray | Uint8Array,
  fg: Uint8Array,
  alpha: Uint8Array,
): number {
  let sum = 0;
  let n = 0;
  for (let p = 0; p < W * H; p++) {
    if (alpha[p]! < SOFT_BAND.min || alpha[p]! > SOFT_BAND.max) continue;
    const a = alpha[p]! / 255;
    for (let c = 0; c < 3; c++) sum += a * Math.abs(frame[p * 4 + c]! - fg[p * 3 + c]!);
    n += 3 * a;
  }
  return sum / n;
}

describe('estimateForeground', () => {
  it(
    "gives a soft edge over saturated magenta the subject's colour " +
      'back, within 6 levels on average (filmed: over 35)',
    () => {
      const { fg, alpha, rgba } = scene(() => [255, 0, 255]);
      const before = bandError(rgba, fg, alpha);
      const out = rgba.slice();
      estimateForeground({ data: out, width: W, height: H, layout: 'rgba' });
      const after = bandError(out, fg, alpha);
      expect(before).toBeGreaterThan(35);
      expect(after).toBeLessThan(6);
      expect(after).toBeLessThan(before / 7);
    },
  );

  it('handles a background that changes across the frame (green to blue)', () => {
    const { fg, alpha, rgba } = scene((x) => [0, 255 - x, x]);
    const before = bandError(rgba, fg, alpha);
    const out = rgba.slice();
    estimateForeground({ data: out, width: W, height: H, layout: 'rgba' });
    expect(bandError(out, fg, alpha)).toBeLessThan(Math.min(10, before / 4));
  });

  it('keeps opaque and transparent pixels and the alpha as they are', () => {
    const { rgba } = scene(() => [0, 255, 0]);
    const out = rgba.slice();
    estimateForeground({ data: out, width: W, height: H, layout: 'rgba' });
    for (let p = 0; p < W * H; p++) {
      const a = rgba[p * 4 + 3]!;
      expect(out[p * 4 + 3]).toBe(a);
      if (a < SOFT_BAND.min || a > SOFT_BAND.max)
        expect(out.subarray(p * 4, p * 4 + 3)).toEqual(rgba.subarray(p * 4, p * 4 + 3));
    }
  });

  it('gives planar frames (ffmpeg yuva444p) the same colours as interleaved ones', () => {
    const { rgba } = scene(() => [255, 0, 255]);
    const planar = new Uint8Array(W * H * 4);
    for (let p = 0; p < W * H; p++)
      for (let c = 0; c < 4; c++) planar[c * W * H + p] = rgba[p * 4 + c]!;
    const interleaved = rgba.slice();
    estimateForeground({ data: interleaved, width: W, height: H, layout: 'rgba' });
    estimateForeground({
      data: planar,
      width: W,
      height: H,
      layout: 'planar',
    } satisfies MattedFrame);
    for (let p = 0; p < W * H; p++)
      for (let c = 0; c < 4; c++) expect(planar[c * W * H + p]).toBe(interleaved[p * 4 + c]);
  });

  it(
    'keeps the filmed colour where the matte is soft over the ' +
      'subject itself (a broad plateau of low alpha)',
    () => {
      // The subject fills the frame (no old background anywhere), but the matte says 0.3 over a
      // wide patch.
      const { fg } = scene(() => [255, 0, 255]);
      const rgba = new Uint8Array(W * H * 4);
      for (let p = 0; p < W * H; p++) {
        for (let c = 0; c < 3; c++) rgba[p * 4 + c] = fg[p * 3 + c]!;
        const x = p % W;
        rgba[p * 4 + 3] = x > 60 && x < 260 ? 77 : 255;
      }
      const out = rgba.slice();
      estimateForeground({ data: out, width: W, height: H, layout: 'rgba' });
      let moved = 0;
      for (let p = 0; p < W * H; p++) {
        const x = p % W;
        if (x < 80 || x > 240) continue;
        for (let c = 0; c < 3; c++) moved += Math.abs(out[p * 4 + c]! - rgba[p * 4 + c]!);
      }
      expect(moved / (161 * H * 3)).toBeLessThan(1);
    },
  );

  it('leaves a frame without a soft band alone', () => {
    const data = new Uint8Array(W * H * 4).map((_, i) =>
      i % 4 === 3 ? (i % 8 === 3 ? 255 : 0) : i % 251,
    );
    const copy = data.slice();
    estimateForeground({ data, width: W, height: H, layout: 'rgba' });
    expect(data).toEqual(copy);
  });
});
