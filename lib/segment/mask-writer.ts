import type { MediaInfo } from '../../engine/media/types';
import { spawnFfmpeg, toolFailure } from '../media/ffmpeg';

/** ffmpeg arguments for the mask file: raw gray8 in, FFV1 gray8 in Matroska out, one frame each. */
export function maskEncodeArgs(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  out: string,
): string[] {
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
    '-fps_mode',
    'passthrough',
    '-f',
    'matroska',
    out,
  ];
}

export interface MaskWriter {
  /** Resolves once ffmpeg has accepted the frame (back-pressure). */
  write(alpha: Uint8Array): Promise<void>;
  /** Closes the stream and waits for ffmpeg to finish the file. */
  finish(): Promise<void>;
  abort(): void;
}

export function openMaskWriter(
  info: Pick<MediaInfo, 'width' | 'height' | 'fpsRational'>,
  out: string,
): MaskWriter {
  const child = spawnFfmpeg(maskEncodeArgs(info, out));
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
