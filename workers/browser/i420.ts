/**
 * RGBA → I420 in BT.709 limited range, the colour description every player and editor assumes for
 * H.264. Handing the encoder a canvas instead lets the browser pick: Chromium 156.0.8078.108
 * writes such frames as full-range sRGB (`yuvj420p`, transfer iec61966-2-1), which some players
 * show with washed-out or crushed colours.
 */

/** The colour space to give a VideoSample/VideoFrame holding `rgbaToI420`'s output. */
export const BT709_LIMITED: VideoColorSpaceInit = {
  primaries: 'bt709',
  transfer: 'bt709',
  matrix: 'bt709',
  fullRange: false,
};

// BT.709 limited-range coefficients × 2^16 (Y: 16–235, Cb/Cr: 16–240).
const YR = 11966,
  YG = 40254,
  YB = 4064;
const UR = -6596,
  UG = -22189,
  UB = 28785;
const VR = 28785,
  VG = -26145,
  VB = -2640;
const HALF = 1 << 15;

/** Bytes of an I420 frame of this size (chroma planes rounded up for odd sizes). */
export function i420Size(width: number, height: number): number {
  return width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
}

/**
 * Converts opaque RGBA pixels (alpha ignored) to planar I420. Each chroma sample is the mean of
 * its 2×2 block (fewer at odd edges).
 */
export function rgbaToI420(
  rgba: Uint8ClampedArray | Uint8Array,
  width: number,
  height: number,
  out = new Uint8Array(i420Size(width, height)),
): Uint8Array {
  const cw = Math.ceil(width / 2);
  const ch = Math.ceil(height / 2);
  const uBase = width * height;
  const vBase = uBase + cw * ch;
  for (let y = 0; y < height; y++) {
    let p = y * width * 4;
    let o = y * width;
    for (let x = 0; x < width; x++, p += 4) {
      out[o++] = ((16 << 16) + YR * rgba[p]! + YG * rgba[p + 1]! + YB * rgba[p + 2]! + HALF) >> 16;
    }
  }
  for (let cy = 0; cy < ch; cy++) {
    const y0 = cy * 2;
    const y1 = Math.min(y0 + 1, height - 1);
    for (let cx = 0; cx < cw; cx++) {
      const x0 = cx * 2;
      const x1 = Math.min(x0 + 1, width - 1);
      let r = 0,
        g = 0,
        b = 0;
      for (const p of [
        (y0 * width + x0) * 4,
        (y0 * width + x1) * 4,
        (y1 * width + x0) * 4,
        (y1 * width + x1) * 4,
      ]) {
        r += rgba[p]!;
        g += rgba[p + 1]!;
        b += rgba[p + 2]!;
      }
      // r, g and b are sums of four samples: the mean's coefficients are a quarter, hence >> 18.
      const c = cy * cw + cx;
      out[uBase + c] = ((128 << 18) + UR * r + UG * g + UB * b + (1 << 17)) >> 18;
      out[vBase + c] = ((128 << 18) + VR * r + VG * g + VB * b + (1 << 17)) >> 18;
    }
  }
  return out;
}
