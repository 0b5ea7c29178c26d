import type { Writable } from 'node:stream';
import { MediaError, spawnFfmpeg, toolFailure } from './ffmpeg';

const STDERR_TAIL = 16 * 1024;

/** Writes an encode's `pipe:0` input; ends it by resolving. */
export type Feed = (stdin: Writable) => Promise<void>;

/** The encode closed its input before the feed was done (it failed, or needed no more frames). */
const inputClosed = (e: unknown) =>
  e instanceof Error &&
  ['EPIPE', 'ERR_STREAM_DESTROYED', 'INPUT_CLOSED'].includes(
    (e as NodeJS.ErrnoException).code ?? '',
  );

/**
 * Runs one ffmpeg encode, reporting frames done (from `-progress`) and honouring cancellation.
 * A failure becomes a MediaError naming `what`, ffmpeg's output logged under its reference.
 * With `feed`, ffmpeg's stdin is the feed's to write; a feed that fails for its own reason (its
 * decode, say) fails the encode with that reason.
 */
export function runEncode(
  args: string[],
  opts: {
    what: string;
    signal?: AbortSignal;
    onProgress?: (framesDone: number) => void;
    feed?: Feed;
  },
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaError(`Encoding ${opts.what} was cancelled.`));
    const child = spawnFfmpeg(['-loglevel', 'error', '-nostats', '-progress', 'pipe:1', ...args]);
    let err = '';
    let pending = '';
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGKILL');
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdin.on('error', () => undefined);
    let fed: Error | null = null;
    if (opts.feed) {
      opts.feed(child.stdin).then(
        () => child.stdin.end(),
        (e: unknown) => {
          fed = e instanceof Error ? e : new Error(String(e));
          child.kill('SIGKILL');
        },
      );
    } else child.stdin.end();
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('frame=')) opts.onProgress?.(Number(line.slice(6)) || 0);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-STDERR_TAIL);
    });
    child.on('error', (e) =>
      reject(new Error(`ffmpeg could not be started (${e.message}). Is ffmpeg installed?`)),
    );
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (cancelled) return reject(new MediaError(`Encoding ${opts.what} was cancelled.`));
      if (fed && !inputClosed(fed)) return reject(fed);
      if (code !== 0)
        return reject(
          toolFailure(`Encoding ${opts.what} failed`, err || `ffmpeg exited with ${code}`),
        );
      resolve();
    });
  });
}
