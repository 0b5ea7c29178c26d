import { guardArgs, safeInputArgs } from '../../engine/media/input';
import { normalizeFilters } from '../../engine/media/normalize';
import type { MediaInfo } from '../../engine/media/types';
import { env } from '../env';
import { rawFrames } from '../media/raw-frames';

export interface DecodedFrame {
  data: Uint8Array;
  width: number;
  height: number;
  /** The same frame scaled down by ffmpeg to the size asked for (`workSize`), if any. */
  work?: { data: Uint8Array; width: number; height: number };
}

/**
 * ffmpeg arguments that decode an untrusted, probed file to raw RGBA on the shared timeline.
 * With `workSize`, each frame also carries a copy scaled to that size (area-averaged by
 * ffmpeg, in its own process): it rides in `workSize[1]` extra rows below the frame, so one
 * pipe keeps both in step.
 */
export function decodeArgs(
  info: MediaInfo,
  input: string,
  opts: { maxFrames?: number; workSize?: [number, number] } = {},
): string[] {
  const base = [...normalizeFilters(info), 'format=rgba'].join(',');
  const ws = opts.workSize;
  const graph = ws
    ? [
        '-filter_complex',
        `[0:v:0]${base},split[f][w];` +
          `[w]scale=${ws[0]}:${ws[1]}:flags=area[s];` +
          `[f]pad=${info.width}:${info.height + ws[1]}[p];` +
          `[p][s]overlay=0:${info.height}:format=rgb,format=rgba[out]`,
        '-map',
        '[out]',
      ]
    : ['-map', '0:v:0', '-vf', base];
  return [
    '-v',
    'error',
    ...safeInputArgs(info, input, env().MAX_FRAME_PIXELS),
    ...graph,
    ...(opts.maxFrames ? ['-frames:v', String(opts.maxFrames)] : []),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    'pipe:1',
  ];
}

/**
 * Decodes a video to RGBA frames at display size (ffmpeg applies rotation). The pipe provides
 * back-pressure: while the consumer is busy, stdout is paused after `bufferFrames` frames, so
 * memory stays bounded whatever the video's length.
 */
export async function* readFrames(
  info: MediaInfo,
  input: string,
  opts: {
    signal?: AbortSignal;
    bufferFrames?: number;
    maxFrames?: number;
    workSize?: [number, number];
  } = {},
): AsyncGenerator<DecodedFrame> {
  const { width, height } = info;
  const ws = opts.workSize;
  for await (const all of rawFrames(
    decodeArgs(info, input, opts),
    width * (height + (ws ? ws[1] : 0)) * 4,
    'Decoding the video',
    opts,
  )) {
    // Copy out: the frame outlives the pipe's chunk and may be transferred elsewhere.
    const data = all.slice(0, width * height * 4);
    let work: DecodedFrame['work'];
    if (ws) {
      const [w, h] = ws;
      const small = new Uint8Array(w * h * 4);
      for (let y = 0; y < h; y++)
        small.set(
          all.subarray((height + y) * width * 4, ((height + y) * width + w) * 4),
          y * w * 4,
        );
      work = { data: small, width: w, height: h };
    }
    yield { data, width, height, work };
  }
}

/**
 * The frames of a stored mask version (FFV1 grey in Matroska, written by mask-writer.ts): one
 * byte per pixel, 255 = subject, one frame per frame of the original's timeline.
 */
export function readMaskFrames(
  file: string,
  size: { width: number; height: number },
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<Uint8Array> {
  const args = [
    '-v',
    'error',
    '-f',
    'matroska',
    ...guardArgs(),
    '-i',
    file,
    '-map',
    '0:v:0',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    'pipe:1',
  ];
  return rawFrames(args, size.width * size.height, 'Reading the mask', opts);
}
