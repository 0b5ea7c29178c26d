import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The first stream of an image or video as ffprobe names it: codec, size, pixel format. */
export async function firstStream(
  file: string,
): Promise<{ codec_name: string; width: number; height: number; pix_fmt: string }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height,pix_fmt',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: Awaited<ReturnType<typeof firstStream>>[] }).streams[0]!;
}

/**
 * Input options that decode a VP9 file with libvpx, which keeps its alpha: ffmpeg's built-in VP9
 * decoder ignores the alpha stream and reads 255 everywhere.
 */
export function vp9WithAlpha(file: string): string[] {
  return ['-c:v', 'libvpx-vp9', '-i', file];
}

type RawPixelFormat = 'rgb24' | 'rgba' | 'gray' | 'yuva420p';

/**
 * Frames of a file through `filter`, as raw pixels: decoded by the system ffmpeg, never the
 * renderer's code. `input` holds the input options and `-i file` (`vp9WithAlpha` keeps VP9's
 * alpha). `frame`: that frame alone; otherwise every frame.
 */
async function decodeRaw(
  input: string[],
  pixFmt: RawPixelFormat,
  filter: string,
  frame?: number,
): Promise<Buffer> {
  const pick = frame === undefined ? [] : [`select='eq(n\\,${frame})'`];
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', ...input, '-vf', [...pick, filter].join(',')],
      ...(frame === undefined ? [] : ['-frames:v', '1']),
      ...['-f', 'rawvideo', '-pix_fmt', pixFmt, '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  return stdout;
}

/** Frame n of a file, through `filter`, as raw pixels. */
export function rawFrame(
  input: string[],
  n: number,
  pixFmt: 'rgb24' | 'rgba' | 'gray',
  filter = 'null',
): Promise<Buffer> {
  return decodeRaw(input, pixFmt, filter, n);
}

/** Every frame of a file, through `filter`, as raw pixels one after another. */
export function allFrames(
  input: string[],
  pixFmt: RawPixelFormat,
  filter = 'null',
): Promise<Buffer> {
  return decodeRaw(input, pixFmt, filter);
}
