import { ffmpeg } from '../../lib/media/ffmpeg';

/**
 * One frame of `video` (the one shown at `at` seconds, the first by default) written as the image
 * `dest` (its extension picks the format), through `filters` when given.
 */
export async function stillFrame(
  video: string,
  dest: string,
  { at, filters }: { at?: number; filters?: string } = {},
): Promise<string> {
  await ffmpeg([
    '-v',
    'error',
    ...(at ? ['-ss', String(at)] : []),
    '-i',
    video,
    '-frames:v',
    '1',
    ...(filters ? ['-vf', filters] : []),
    dest,
  ]);
  return dest;
}
