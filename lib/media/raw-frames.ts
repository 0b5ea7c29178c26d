import type { Readable } from 'node:stream';
import { MediaError, spawnFfmpeg, toolFailure } from './ffmpeg';

/**
 * Runs ffmpeg and yields its raw output cut into frames of `frameBytes` (each a view the
 * caller may keep until the next one). Bounded by the pipe's back-pressure. `stdin` is piped
 * into ffmpeg's (an input that is `pipe:0`).
 */
export async function* rawFrames(
  args: string[],
  frameBytes: number,
  what: string,
  opts: { signal?: AbortSignal; bufferFrames?: number; stdin?: Readable },
): AsyncGenerator<Uint8Array> {
  const child = spawnFfmpeg(args);
  // A decoder that stops reading (it failed, or had the frames it wanted) is not an error here.
  child.stdin.on('error', () => undefined);
  if (opts.stdin) opts.stdin.pipe(child.stdin);
  else child.stdin.end();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-16_384);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const onAbort = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const limit = (opts.bufferFrames ?? 4) * frameBytes;
  child.stdout.setMaxListeners(0);
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < frameBytes) continue;
      let all = Buffer.concat(pending);
      let off = 0;
      while (all.length - off >= frameBytes) {
        yield new Uint8Array(all.buffer, all.byteOffset + off, frameBytes);
        off += frameBytes;
      }
      all = all.subarray(off);
      pending = all.length ? [Buffer.from(all)] : [];
      pendingBytes = all.length;
      if (pendingBytes > limit) throw new Error('decoder buffer overflow');
    }
    const code = await exited;
    if (opts.signal?.aborted) throw new MediaError(`${what} was cancelled`);
    if (code !== 0) throw toolFailure(`${what} failed`, stderr || `ffmpeg exited with ${code}`);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
