import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Frame n of a file, through `filter`, as raw pixels: decoded by the system ffmpeg, never the
 * renderer's code. `input` holds the input options and `-i file` (`-c:v libvpx-vp9` keeps VP9's
 * alpha).
 */
export async function rawFrame(
  input: string[],
  n: number,
  pixFmt: 'rgb24' | 'rgba' | 'gray',
  filter = 'null',
): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      ...input,
      '-vf',
      `select='eq(n\\,${n})',${filter}`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      pixFmt,
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  return stdout;
}
