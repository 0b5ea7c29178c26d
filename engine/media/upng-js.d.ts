/**
 * The parts of upng-js 2.1 (UPNG.js) that engine/media/apng-palette.ts and its test use; the
 * package ships no types.
 */
declare module 'upng-js' {
  interface DecodedPng {
    width: number;
    height: number;
    /** PNG colour type (3: palette). */
    ctype: number;
  }
  const UPNG: {
    /**
     * Quantizes all frames to one palette of `colours` RGBA entries: each pixel becomes its entry,
     * premultiplied (0xAABBGGRR).
     */
    quantize(frames: ArrayBuffer[], colours: number): { bufs: ArrayBuffer[] };
    /**
     * Encodes RGBA frames; with `colours` 0 it is lossless and writes a palette (PLTE + tRNS) when
     * ≤ 256 colours are used.
     */
    encode(
      frames: ArrayBuffer[],
      width: number,
      height: number,
      colours: number,
      delaysMs?: number[],
    ): ArrayBuffer;
    /** Parses a PNG or APNG. */
    decode(png: ArrayBuffer): DecodedPng;
    /** Each frame of a decoded PNG as full-canvas RGBA. */
    toRGBA8(png: DecodedPng): ArrayBuffer[];
  };
  export default UPNG;
}
