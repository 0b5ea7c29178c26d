import { PassThrough, type Writable } from 'node:stream';
import type { MediaInfo } from '../../engine/media/types';
import { spawnFfmpeg, toolFailure } from '../media/ffmpeg';

/**
 * Masks up to this many pixels are FFV1; larger ones lossless H.264 4:0:0 (x264 at qp 0, one
 * packet a frame, no B-frames). FFmpeg 5.1's FFV1 encoder zero-fills a packet buffer of 148
 * bytes a pixel, 1.2 GB at 3840x2160 whatever its settings; x264 holds about 120 MB there,
 * runs faster and writes a smaller file (docs/engine.md, "Job time").
 */
const MAX_FFV1_PIXELS = 1920 * 1080;

/** The mask's encoder: both lossless, gray8 in and out. */
function maskCodecArgs(pixels: number): string[] {
  if (pixels <= MAX_FFV1_PIXELS)
    return [
      '-c:v',
      'ffv1',
      '-level',
      '3',
      '-pix_fmt',
      'gray',
      '-g',
      '1',
      '-slices',
      '4',
      '-slicecrc',
      '1',
    ];
  // Tagged full range: untagged, the decoder's 4:0:0 is read as limited range and stretched.
  return [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-qp',
    '0',
    '-threads',
    '1',
    '-pix_fmt',
    'gray',
    '-color_range',
    'pc',
  ];
}

/**
 * ffmpeg arguments for the mask file: raw gray8 in, lossless gray8 in Matroska out, one frame
 * each. `tee`: the same stream also goes to stdout as it is made (a render reading it
 * meanwhile); the file is written the same, and a reader that goes away stops nothing.
 */
export function maskEncodeArgs(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  out: string,
  tee = false,
): string[] {
  const output = tee
    ? [
        '-map',
        '0:v',
        '-f',
        'tee',
        `[f=matroska]${out.replaceAll('\\', '\\\\').replace(/[|:[\]]/g, '\\$&')}|[f=matroska:` +
          'onfail=ignore]pipe\\:1',
      ]
    : ['-f', 'matroska', out];
  return [
    '-v',
    'error',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    '-s',
    `${info.width}x${info.height}`,
    '-framerate',
    info.fpsRational,
    '-i',
    'pipe:0',
    ...maskCodecArgs(info.width * info.height),
    '-fps_mode',
    'passthrough',
    ...output,
  ];
}

/**
 * How far a reader of the teed stream may lag. A mask compresses to a few tens of KB a 1080p
 * frame, so this holds hundreds of frames: a render that falls behind does not pace segmentation.
 */
const TEE_BUFFER_BYTES = 64 * 2 ** 20;

export interface MaskWriter {
  /** Resolves once ffmpeg has accepted the frame (back-pressure). */
  write(alpha: Uint8Array): Promise<void>;
  /** Closes the stream and waits for ffmpeg to finish the file. */
  finish(): Promise<void>;
  abort(): void;
}

/** `alsoTo` gets the mask's Matroska stream as it is written (render-while-segmenting.ts). */
export function openMaskWriter(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  out: string,
  alsoTo?: Writable,
): MaskWriter {
  const child = spawnFfmpeg(maskEncodeArgs(info, out, Boolean(alsoTo)));
  // The reader may fall behind by up to TEE_BUFFER_BYTES before it holds the writer (and so
  // segmentation) back. One that fails or goes away is let go and the rest of the stream
  // drained, so the file completes.
  const buffer = new PassThrough({ highWaterMark: TEE_BUFFER_BYTES });
  const letGo = () => {
    buffer.unpipe();
    buffer.resume();
  };
  if (alsoTo && !alsoTo.destroyed && alsoTo.writable) {
    alsoTo.on('error', letGo);
    alsoTo.on('close', letGo);
    child.stdout.pipe(buffer).pipe(alsoTo);
  } else child.stdout.resume();
  let stderr = '';
  let failed: Error | null = null;
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-16_384);
  });
  child.stdin.on('error', (e) => {
    failed ??= e;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const fail = (why: string) => toolFailure('Writing the mask failed', stderr || why);
  return {
    async write(alpha) {
      if (failed || child.exitCode !== null) throw fail(failed?.message ?? 'encoder exited');
      if (!child.stdin.write(alpha)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            child.stdin.off('drain', done);
            child.off('close', done);
            resolve();
          };
          child.stdin.on('drain', done);
          child.on('close', done);
        });
      }
    },
    async finish() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw fail(`ffmpeg exited with ${code}`);
    },
    abort() {
      child.kill('SIGKILL');
    },
  };
}
