import UPNG from 'upng-js';
import { parseRational } from './geometry';

/**
 * A lossy APNG: the frames quantized to one palette with partial alpha (PLTE + tRNS, about a
 * quarter of RGBA's bytes), then written with upng-js, which stores each frame as the rectangle
 * that changed. upng-js averages colours premultiplied by alpha; its palette is turned back into
 * straight colour here (the alpha-weighted mean of each cluster), else half-transparent edges
 * would come out darker. Pure, so the server's stickers and the studio's share it.
 */
export function quantizedApng(raw: Uint8Array, job: { width: number; height: number; colours: number; fpsRational: string }): Uint8Array {
  const frameBytes = job.width * job.height * 4;
  const count = Math.floor(raw.length / frameBytes);
  if (count === 0) throw new Error('no frames to write');
  const frames = Array.from({ length: count }, (_, i) => raw.buffer.slice(raw.byteOffset + i * frameBytes, raw.byteOffset + (i + 1) * frameBytes) as ArrayBuffer);
  // upng-js adds a fully transparent entry of its own: one fewer for the clusters.
  const q = UPNG.quantize(frames, job.colours - 1);
  const straight = new Map(q.plte.map((leaf) => [leaf.est.rgba >>> 0, unpremultiply(leaf.est.rgba >>> 0)]));
  for (const buf of q.bufs) {
    const px = new Uint32Array(buf);
    for (let i = 0; i < px.length; i++) px[i] = straight.get(px[i]!) ?? px[i]!;
  }
  return new Uint8Array(UPNG.encode(q.bufs, job.width, job.height, 0, frameDelays(count, parseRational(job.fpsRational))));
}

/** 0xAABBGGRR premultiplied → straight; fully transparent → 0. */
export function unpremultiply(c: number): number {
  const a = c >>> 24;
  if (a === 0) return 0;
  const ch = (shift: number) => Math.min(255, Math.round((((c >>> shift) & 255) * 255) / a));
  return ((a << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)) >>> 0;
}

/** Whole-millisecond delays whose running sum stays on the exact timeline (30 fps: 33, 34, 33, …). */
export function frameDelays(count: number, fps: number): number[] {
  return Array.from({ length: count }, (_, k) => Math.round(((k + 1) * 1000) / fps) - Math.round((k * 1000) / fps));
}
