/**
 * Pure readers of animated-image containers, for validation: FFmpeg 5.1 cannot demux animated
 * WebP, and reports neither frame count nor duration for APNG.
 */

export interface AnimationFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Milliseconds. */
  duration: number;
  hasAlpha: boolean;
}

export interface AnimationInfo {
  width: number;
  height: number;
  /** 0 = forever. */
  loopCount: number;
  hasAlpha: boolean;
  frames: AnimationFrame[];
}

export class ContainerError extends Error {
  override name = 'ContainerError';
}

const ascii = (b: Uint8Array, at: number, n: number) =>
  String.fromCharCode(...b.subarray(at, at + n));
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32le = (b: Uint8Array, at: number) => (u24le(b, at) | (b[at + 3]! << 24)) >>> 0;
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

interface Chunk {
  type: string;
  start: number;
  data: Uint8Array;
}

function riffChunks(b: Uint8Array, from: number, to: number): Chunk[] {
  const out: Chunk[] = [];
  let at = from;
  while (at + 8 <= to) {
    const size = u32le(b, at + 4);
    if (at + 8 + size > to) throw new ContainerError('truncated RIFF chunk');
    out.push({ type: ascii(b, at, 4), start: at, data: b.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  return out;
}

/** Reads an (animated) WebP: canvas, loop count, and each frame's rectangle, duration and alpha. */
export function readWebp(b: Uint8Array): AnimationInfo & { frameChunks: Uint8Array[][] } {
  if (b.length < 12 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP')
    throw new ContainerError('not a WebP file');
  const chunks = riffChunks(b, 12, Math.min(b.length, 8 + u32le(b, 4)));
  const vp8x = chunks.find((c) => c.type === 'VP8X');
  if (!vp8x) throw new ContainerError('not an extended (animated) WebP');
  const flags = vp8x.data[0]!;
  if (!(flags & ANIMATION_FLAG)) throw new ContainerError('a still WebP, not an animation');
  const anim = chunks.find((c) => c.type === 'ANIM');
  const frames: AnimationFrame[] = [];
  const frameChunks: Uint8Array[][] = [];
  for (const c of chunks.filter((k) => k.type === 'ANMF')) {
    const d = c.data;
    const sub = riffChunks(d, 16, d.length);
    frames.push({
      x: u24le(d, 0) * 2,
      y: u24le(d, 3) * 2,
      width: u24le(d, 6) + 1,
      height: u24le(d, 9) + 1,
      duration: u24le(d, 12),
      hasAlpha:
        sub.some((s) => s.type === 'ALPH') ||
        sub.some((s) => s.type === 'VP8L' && vp8lHasAlpha(s.data)),
    });
    frameChunks.push(
      sub
        .filter((s) => ['ALPH', 'VP8 ', 'VP8L'].includes(s.type))
        .map((s) => d.subarray(s.start, s.start + 8 + s.data.length)),
    );
  }
  return {
    width: u24le(vp8x.data, 4) + 1,
    height: u24le(vp8x.data, 7) + 1,
    loopCount: anim ? u16le(anim.data, 4) : 1,
    hasAlpha: (flags & 0x10) !== 0,
    frames,
    frameChunks,
  };
}

const ANIMATION_FLAG = 0x02;
const ALPHA_FLAG = 0x10;
/** The chunks of a WebP image: its alpha and its VP8 (lossy) or VP8L (lossless) picture. */
const IMAGE_CHUNKS = ['ALPH', 'VP8 ', 'VP8L'];

const u24 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff];
const u32 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];

/** A RIFF chunk with its header and padding. */
function riffChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  out.set([...type].map((c) => c.charCodeAt(0)));
  out.set(u32(data.length), 4);
  out.set(data, 8);
  return out;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * An animated WebP as it was asked for, from what libwebp wrote; null when it needs nothing.
 * libwebp writes an animation of one frame (all frames identical: a still with no camera move)
 * as a still image when that is smaller: it is wrapped back into an animation of that frame,
 * lasting `durationMs` and looping forever. And it crops each frame to what changed, so a frame
 * of an opaque subject has no alpha and the file no alpha flag, although the canvas around the
 * frame is transparent: the flag is set.
 */
export function asAnimatedWebp(b: Uint8Array, durationMs: number): Uint8Array | null {
  if (b.length < 12 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP')
    throw new ContainerError('not a WebP file');
  const chunks = riffChunks(b, 12, Math.min(b.length, 8 + u32le(b, 4)));
  const vp8x = chunks.find((c) => c.type === 'VP8X');
  if (vp8x && vp8x.data[0]! & ANIMATION_FLAG) return withCanvasAlpha(b, vp8x);
  const image = chunks.filter((c) => IMAGE_CHUNKS.includes(c.type));
  const picture = image.find((c) => c.type !== 'ALPH');
  if (!picture) throw new ContainerError('a WebP with no picture');
  const size = vp8x
    ? { width: u24le(vp8x.data, 4) + 1, height: u24le(vp8x.data, 7) + 1 }
    : webpPictureSize(picture);
  const hasAlpha =
    image.some((c) => c.type === 'ALPH') || (picture.type === 'VP8L' && vp8lHasAlpha(picture.data));
  const header = new Uint8Array(10);
  header.set([ANIMATION_FLAG | (hasAlpha ? ALPHA_FLAG : 0)]);
  header.set([...u24(size.width - 1), ...u24(size.height - 1)], 4);
  // Background colour 0 (transparent), loop count 0 (forever).
  const anim = new Uint8Array(6);
  // Offset 0,0, the canvas's size, the whole duration; no blending over the (empty) canvas.
  const frameHeader = new Uint8Array([
    ...u24(0),
    ...u24(0),
    ...u24(size.width - 1),
    ...u24(size.height - 1),
    ...u24(durationMs),
    0x02,
  ]);
  const frame = concat([frameHeader, ...image.map((c) => riffChunk(c.type, c.data))]);
  const body = concat([
    riffChunk('VP8X', header),
    riffChunk('ANIM', anim),
    riffChunk('ANMF', frame),
  ]);
  return concat([
    new Uint8Array([0x52, 0x49, 0x46, 0x46, ...u32(4 + body.length), 0x57, 0x45, 0x42, 0x50]),
    body,
  ]);
}

/**
 * An animation with the alpha flag set where a frame leaves part of the canvas uncovered
 * (transparent); null when it is right already.
 */
function withCanvasAlpha(b: Uint8Array, vp8x: Chunk): Uint8Array | null {
  if (vp8x.data[0]! & ALPHA_FLAG) return null;
  const info = readWebp(b);
  if (
    info.frames.every(
      (f) => f.x === 0 && f.y === 0 && f.width === info.width && f.height === info.height,
    )
  )
    return null;
  const out = b.slice();
  out[vp8x.start + 8] = vp8x.data[0]! | ALPHA_FLAG;
  return out;
}

/** A simple-format WebP's size, from its VP8 or VP8L picture header. */
function webpPictureSize(c: Chunk): { width: number; height: number } {
  const d = c.data;
  if (c.type === 'VP8L') {
    const bits = u32le(d, 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return { width: u16le(d, 6) & 0x3fff, height: u16le(d, 8) & 0x3fff };
}

function vp8lHasAlpha(d: Uint8Array): boolean {
  // VP8L header: signature 0x2f, then 14+14 bits of size, then the alpha_is_used bit.
  return d.length > 4 && d[0] === 0x2f && ((d[4]! >> 4) & 1) === 1;
}

/** Wraps one animation frame's chunks as a still WebP that any WebP decoder can read. */
export function stillWebp(
  frame: Pick<AnimationFrame, 'width' | 'height'>,
  chunks: Uint8Array[],
): Uint8Array {
  const vp8x = new Uint8Array(18);
  vp8x.set([0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0]); // "VP8X", size 10
  const hasAlph = chunks.some((c) => ascii(c, 0, 4) === 'ALPH');
  vp8x[8] = hasAlph ? 0x10 : 0;
  const w = frame.width - 1;
  const h = frame.height - 1;
  vp8x.set(
    [w & 0xff, (w >> 8) & 0xff, (w >> 16) & 0xff, h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff],
    12,
  );
  const pad = (c: Uint8Array) => (c.length & 1 ? [c, new Uint8Array(1)] : [c]);
  const body = [vp8x, ...chunks.flatMap(pad)];
  const size = 4 + body.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(8 + size);
  out.set([
    0x52,
    0x49,
    0x46,
    0x46,
    size & 0xff,
    (size >> 8) & 0xff,
    (size >> 16) & 0xff,
    (size >>> 24) & 0xff,
    0x57,
    0x45,
    0x42,
    0x50,
  ]);
  let at = 12;
  for (const c of body) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Reads an APNG: canvas, plays (0 = forever), colour type, and each frame's rectangle and delay.
 */
export function readApng(b: Uint8Array): AnimationInfo & { colorType: number } {
  if (!PNG_SIGNATURE.every((v, i) => b[i] === v)) throw new ContainerError('not a PNG file');
  let at = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  let plays: number | null = null;
  const frames: AnimationFrame[] = [];
  let hasTrns = false;
  while (at + 12 <= b.length) {
    const len = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    const d = at + 8;
    if (d + len + 4 > b.length) throw new ContainerError('truncated PNG chunk');
    if (type === 'IHDR') {
      width = u32be(b, d);
      height = u32be(b, d + 4);
      colorType = b[d + 9]!;
    } else if (type === 'acTL') {
      plays = u32be(b, d + 4);
    } else if (type === 'tRNS') {
      hasTrns = true;
    } else if (type === 'fcTL') {
      const num = u16be(b, d + 20);
      const den = u16be(b, d + 22) || 100;
      frames.push({
        width: u32be(b, d + 4),
        height: u32be(b, d + 8),
        x: u32be(b, d + 12),
        y: u32be(b, d + 16),
        duration: (num / den) * 1000,
        hasAlpha: colorType === 6 || colorType === 4 || hasTrns,
      });
    } else if (type === 'IEND') {
      break;
    }
    at = d + len + 4;
  }
  if (plays === null) throw new ContainerError('a PNG without animation (no acTL chunk)');
  return {
    width,
    height,
    loopCount: plays,
    hasAlpha: colorType === 6 || colorType === 4 || hasTrns,
    frames,
    colorType,
  };
}

/** The GIF's logical screen and its NETSCAPE2.0 loop count (null = plays once). */
export function readGifHeader(b: Uint8Array): {
  width: number;
  height: number;
  loopCount: number | null;
} {
  const sig = ascii(b, 0, 6);
  if (sig !== 'GIF89a' && sig !== 'GIF87a') throw new ContainerError('not a GIF file');
  const marker = 'NETSCAPE2.0';
  let loopCount: number | null = null;
  const limit = Math.min(b.length - 15, 64 * 1024);
  for (let i = 13; i < limit; i++) {
    if (
      b[i] === 0x4e &&
      ascii(b, i, marker.length) === marker &&
      b[i + 11] === 3 &&
      b[i + 12] === 1
    ) {
      loopCount = u16le(b, i + 13);
      break;
    }
  }
  return { width: u16le(b, 6), height: u16le(b, 8), loopCount };
}
