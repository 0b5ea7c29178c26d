import { ffmpeg } from '../ffmpeg';

/** Per-frame statistics of an 8-bit plane (alpha or matte). */
export interface PlaneStats {
  min: number;
  max: number;
  mean: number;
  /** Pixels that are neither 0 nor 255. */
  partial: number;
}

export function planeStats(plane: Uint8Array): PlaneStats {
  let min = 255;
  let max = 0;
  let sum = 0;
  let partial = 0;
  for (const v of plane) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    if (v !== 0 && v !== 255) partial++;
  }
  return { min, max, mean: plane.length ? sum / plane.length : 0, partial };
}

/** Frame indices to decode: early, middle and late. */
export function sampleIndices(frames: number): number[] {
  return [
    ...new Set([Math.floor(frames * 0.1), Math.floor(frames * 0.5), Math.max(0, frames - 2)]),
  ].sort((a, b) => a - b);
}

/** Beyond this many frames, sampled video frames are reached by seeking (see decodePlanes). */
const SEEK_AFTER_FRAMES = 600;

/** Decoded planes are sampled at most this wide (nearest neighbour keeps values exact). */
const SAMPLE_WIDTH = 320;

/**
 * Decodes the chosen frames (all frames of a still when `indices` is null) through
 * `planeFilter` into 8-bit planes, nearest-neighbour scaled to at most SAMPLE_WIDTH wide.
 * With `seekFps`, frames far into a video are reached by accurate input seeks instead of
 * decoding every frame before them (long files stay cheap to check); short files and
 * animations are decoded in one pass.
 */
export async function decodePlanes(
  input: string[],
  planeFilter: string,
  indices: number[] | null,
  width: number,
  height: number,
  signal?: AbortSignal,
  seekFps?: number,
  /** Every frame is a keyframe (ProRes): a seek is always cheaper than decoding in order. */
  intraOnly = false,
): Promise<Uint8Array[]> {
  const w = Math.min(width, SAMPLE_WIDTH);
  const h = Math.max(1, Math.round((height * w) / width));
  const decode = async (pre: string[], select: string, frames: string[]) => {
    const { stdout } = await ffmpeg(
      [
        '-v',
        'error',
        ...pre,
        ...input,
        '-vf',
        `${select}${planeFilter},scale=${w}:${h}:flags=neighbor,format=gray`,
        ...frames,
        '-fps_mode',
        'passthrough',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        'pipe:1',
      ],
      { timeoutMs: 600_000, signal },
    );
    const size = w * h;
    const planes: Uint8Array[] = [];
    for (let at = 0; at + size <= stdout.length; at += size)
      planes.push(new Uint8Array(stdout.subarray(at, at + size)));
    return planes;
  };
  // Seeking costs a process per frame: worth it only when a single pass would decode many frames.
  if (indices && seekFps && (intraOnly || Math.max(...indices) > SEEK_AFTER_FRAMES)) {
    const planes: Uint8Array[] = [];
    for (const i of indices) {
      // Half a frame early: the first frame at or after that time is frame i.
      const at = Math.max(0, (i - 0.5) / seekFps);
      planes.push(...(await decode(['-ss', at.toFixed(6)], '', ['-frames:v', '1'])));
    }
    return planes;
  }
  const select = indices ? `select='${indices.map((i) => `eq(n\\,${i})`).join('+')}',` : '';
  return decode([], select, []);
}
