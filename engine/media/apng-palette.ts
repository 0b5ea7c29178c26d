import UPNG from 'upng-js';
import { parseRational } from './geometry';

/**
 * A lossy APNG: the frames quantized to one palette with partial alpha (PLTE + tRNS, about a
 * quarter of RGBA's bytes), then written with upng-js, which stores each frame as the rectangle
 * that changed. Fully transparent pixels get one entry, and the opaque inside and the soft edge
 * are clustered apart: clustered together, with few colours, every cluster's alpha is a mean of
 * both, and no pixel of a small subject stays fully opaque. upng-js averages colours
 * premultiplied by alpha; the edge's palette is turned back into straight colour (the
 * alpha-weighted mean of each cluster), else half-transparent edges would come out darker.
 * Pure, so the server's stickers and the studio's share it.
 */
export function quantizedApng(
  raw: Uint8Array,
  job: { width: number; height: number; colours: number; fpsRational: string },
): Uint8Array {
  const frameBytes = job.width * job.height * 4;
  const count = Math.floor(raw.length / frameBytes);
  if (count === 0) throw new Error('no frames to write');
  const px = new Uint32Array(raw.slice(0, count * frameBytes).buffer);
  const { opaque, edge } = alphaClasses(px);
  const share = paletteShares(job.colours, opaque.length, edge.length);
  quantizeInto(px, opaque, share.opaque);
  quantizeInto(px, edge, share.edge);
  const frames = Array.from({ length: count }, (_, i) =>
    px.buffer.slice(i * frameBytes, (i + 1) * frameBytes),
  );
  return new Uint8Array(
    UPNG.encode(
      frames,
      job.width,
      job.height,
      0,
      frameDelays(count, parseRational(job.fpsRational)),
    ),
  );
}

/** Indices of the opaque and the partly transparent pixels; fully transparent ones are set to 0. */
function alphaClasses(px: Uint32Array): { opaque: Uint32Array; edge: Uint32Array } {
  let opaqueCount = 0;
  let edgeCount = 0;
  for (let i = 0; i < px.length; i++) {
    const a = px[i]! >>> 24;
    if (a === 255) opaqueCount++;
    else if (a > 0) edgeCount++;
    else px[i] = 0;
  }
  const opaque = new Uint32Array(opaqueCount);
  const edge = new Uint32Array(edgeCount);
  for (let i = 0, o = 0, e = 0; i < px.length; i++) {
    const a = px[i]! >>> 24;
    if (a === 255) opaque[o++] = i;
    else if (a > 0) edge[e++] = i;
  }
  return { opaque, edge };
}

/**
 * Entries for the opaque inside and the soft edge: one is the fully transparent one, the edge gets
 * its share by pixel count (at least one, at most half), and a class that is alone gets them all.
 */
function paletteShares(
  colours: number,
  opaque: number,
  edge: number,
): { opaque: number; edge: number } {
  const entries = colours - 1;
  if (!edge || !opaque) return { opaque: edge ? 0 : entries, edge: edge ? entries : 0 };
  const forEdge = Math.min(
    Math.max(1, Math.round((entries * edge) / (opaque + edge))),
    Math.floor(entries / 2),
  );
  return { opaque: entries - forEdge, edge: forEdge };
}

/**
 * Clusters the pixels at `at` into `colours` entries (upng-js), written back in straight colour.
 */
function quantizeInto(px: Uint32Array, at: Uint32Array, colours: number): void {
  if (!at.length) return;
  const group = new Uint32Array(at.length);
  for (let k = 0; k < at.length; k++) group[k] = px[at[k]!]!;
  const mapped = new Uint32Array(UPNG.quantize([group.buffer], Math.max(1, colours)).bufs[0]!);
  for (let k = 0; k < at.length; k++) px[at[k]!] = unpremultiply(mapped[k]!);
}

/** 0xAABBGGRR premultiplied → straight; fully transparent → 0. */
export function unpremultiply(c: number): number {
  const a = c >>> 24;
  if (a === 0) return 0;
  const ch = (shift: number) => Math.min(255, Math.round((((c >>> shift) & 255) * 255) / a));
  return ((a << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)) >>> 0;
}

/**
 * Whole-millisecond delays whose running sum stays on the exact timeline (30 fps: 33, 34, 33, …).
 */
export function frameDelays(count: number, fps: number): number[] {
  return Array.from(
    { length: count },
    (_, k) => Math.round(((k + 1) * 1000) / fps) - Math.round((k * 1000) / fps),
  );
}
