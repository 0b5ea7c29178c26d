import zlib from 'node:zlib';

/** A small RGBA image: the colour of a finished frame with its alpha. */
export interface PreviewImage {
  /** 0-based index of the frame on the video's timeline. */
  frame: number;
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Longest side of a preview image: enough for the job page, a few tens of KB as PNG. */
export const PREVIEW_MAX_SIDE = 480;

/** Preview size for a frame, keeping its aspect ratio, never upscaled. */
export function previewSize(
  width: number,
  height: number,
  maxSide = PREVIEW_MAX_SIDE,
): [number, number] {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

/**
 * Nearest-neighbour copy of an RGBA frame at preview size (cheap; the preview is a glance, not a
 * result).
 */
export function shrinkRgba(
  data: Uint8Array,
  width: number,
  height: number,
  size: [number, number],
): Uint8Array {
  const [w, h] = size;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(height - 1, Math.floor(((y + 0.5) * height) / h));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(width - 1, Math.floor(((x + 0.5) * width) / w));
      const s = (sy * width + sx) * 4;
      const d = (y * w + x) * 4;
      out[d] = data[s]!;
      out[d + 1] = data[s + 1]!;
      out[d + 2] = data[s + 2]!;
      out[d + 3] = 255;
    }
  }
  return out;
}

/** Writes a full-size alpha (one byte a pixel) into the alpha channel of a shrunk colour copy. */
export function applyAlpha(
  rgba: Uint8Array,
  size: [number, number],
  alpha: Uint8Array,
  width: number,
  height: number,
): void {
  const [w, h] = size;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(height - 1, Math.floor(((y + 0.5) * height) / h));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(width - 1, Math.floor(((x + 0.5) * width) / w));
      rgba[(y * w + x) * 4 + 3] = alpha[sy * width + sx]!;
    }
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An 8-bit RGBA PNG of the image. The format is a signature and three chunks; node:zlib does
 * the compression, so the worker needs no image library and no ffmpeg process per preview.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width * 4 + 1)] = 0; // filter: none
    rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Pairs the alphas the matter hands back (in frame order, lagging behind the frames pushed)
 * with shrunk copies of their frames, and offers the newest finished frame at most once per
 * `everyMs`. Only the shrunk copies of frames still in flight are kept.
 */
export class PreviewSampler {
  private readonly size: [number, number];
  private readonly waiting: Uint8Array[] = [];
  private finished = 0;
  private lastOffer = -Infinity;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly everyMs: number,
    private readonly offer: (image: PreviewImage) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.size = previewSize(width, height);
  }

  /** A decoded frame went into the matter. */
  pushed(data: Uint8Array): void {
    this.waiting.push(shrinkRgba(data, this.width, this.height, this.size));
  }

  /** Alphas came back for the oldest frames in flight, in order. */
  finishedFrames(alphas: Uint8Array[]): void {
    let last: Uint8Array | undefined;
    let lastAlpha: Uint8Array | undefined;
    for (const alpha of alphas) {
      last = this.waiting.shift();
      lastAlpha = alpha;
      this.finished++;
    }
    if (!last || !lastAlpha || this.now() - this.lastOffer < this.everyMs) return;
    this.lastOffer = this.now();
    applyAlpha(last, this.size, lastAlpha, this.width, this.height);
    this.offer({ frame: this.finished - 1, width: this.size[0], height: this.size[1], rgba: last });
  }
}
