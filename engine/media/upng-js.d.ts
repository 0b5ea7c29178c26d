/** The parts of upng-js 2.1 (UPNG.js) that engine/media/apng-palette.ts uses; the package ships no types. */
declare module 'upng-js' {
  interface QuantizeLeaf {
    /** The leaf's colour, premultiplied by its alpha: 0xAABBGGRR. */
    est: { rgba: number };
  }
  const UPNG: {
    /** Quantizes all frames to one palette of `colours` RGBA entries (colours premultiplied). */
    quantize(frames: ArrayBuffer[], colours: number): { bufs: ArrayBuffer[]; plte: QuantizeLeaf[] };
    /** Encodes RGBA frames; with `colours` 0 it is lossless and writes a palette (PLTE + tRNS) when ≤ 256 colours are used. */
    encode(frames: ArrayBuffer[], width: number, height: number, colours: number, delaysMs?: number[]): ArrayBuffer;
  };
  export default UPNG;
}
