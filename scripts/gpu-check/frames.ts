import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import type { RgbaFrame } from '../../engine/matte/image';

/**
 * The GPU check's frames, as pack.sh writes them: per DAVIS sequence a folder with its frames
 * as JPEG (`00000.jpg` …), its ground truth as one gzip of grey frames (`masks.gz`) and
 * `info.json`. JPEG because the GPU machine has no ffmpeg and the frames must fit the 64 MiB a
 * run carries; jpeg-js (pure JavaScript) decodes them, from the node_modules packed beside the
 * bench, so it is not a dependency of the product.
 */
export interface Sequence {
  name: string;
  width: number;
  height: number;
  frames: RgbaFrame[];
  masks: Uint8Array[];
}

interface JpegJs {
  decode(
    data: Uint8Array,
    opts: { useTArray: true; formatAsRGBA: true },
  ): { width: number; height: number; data: Uint8Array };
}

export function readSequence(dir: string, maxFrames = Infinity): Sequence {
  const jpeg = createRequire(path.join(dir, 'x.js'))('jpeg-js') as JpegJs;
  const info = JSON.parse(fs.readFileSync(path.join(dir, 'info.json'), 'utf8')) as {
    width: number;
    height: number;
    frames: number;
  };
  const n = Math.min(info.frames, maxFrames);
  const frames = Array.from({ length: n }, (_, i) =>
    jpeg.decode(fs.readFileSync(path.join(dir, `${String(i).padStart(5, '0')}.jpg`)), {
      useTArray: true,
      formatAsRGBA: true,
    }),
  );
  const all = zlib.gunzipSync(fs.readFileSync(path.join(dir, 'masks.gz')));
  const size = info.width * info.height;
  const masks = Array.from(
    { length: n },
    (_, i) => new Uint8Array(all.subarray(i * size, (i + 1) * size)),
  );
  return { name: path.basename(dir), width: info.width, height: info.height, frames, masks };
}

/** Bilinear RGBA resize (the bench's stand-in for ffmpeg's scaler: outside the timed part). */
export function resizeRgba(frame: RgbaFrame, w: number, h: number): RgbaFrame {
  const { data, width: W, height: H } = frame;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(H - 1, Math.max(0, ((y + 0.5) * H) / h - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(H - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(W - 1, Math.max(0, ((x + 0.5) * W) / w - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(W - 1, x0 + 1);
      const wx = fx - x0;
      for (let c = 0; c < 4; c++) {
        const top = data[(y0 * W + x0) * 4 + c]! * (1 - wx) + data[(y0 * W + x1) * 4 + c]! * wx;
        const bottom = data[(y1 * W + x0) * 4 + c]! * (1 - wx) + data[(y1 * W + x1) * 4 + c]! * wx;
        out[(y * w + x) * 4 + c] = Math.round(top * (1 - wy) + bottom * wy);
      }
    }
  }
  return { data: out, width: w, height: h };
}
