import { MediaError, spawnFfmpeg, toolFailure } from './ffmpeg';

const STDERR_TAIL = 16 * 1024;

/**
 * Runs one ffmpeg encode, reporting frames done (from `-progress`) and honouring cancellation.
 * A failure becomes a MediaError naming `what`, ffmpeg's output logged under its reference.
 */
export function runEncode(
  args: string[],
  opts: { what: string; signal?: AbortSignal; onProgress?: (framesDone: number) => void },
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
    child.stdin.end();
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
    child.on('error', (e) => reject(new Error(`ffmpeg could not be started (${e.message}). Is ffmpeg installed?`)));
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (cancelled) return reject(new MediaError(`Encoding ${opts.what} was cancelled.`));
      if (code !== 0) return reject(toolFailure(`Encoding ${opts.what} failed`, err || `ffmpeg exited with ${code}`));
      resolve();
    });
  });
}
