import fs from 'node:fs';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../errors';

/**
 * After the cap is passed, up to this many more bytes are read and thrown away, so an ordinary
 * client that is still sending gets to read the 413 instead of a connection reset. Beyond it,
 * the connection is cut.
 */
export const DRAIN_BYTES = 64 * 1024 * 1024;

export function tooLarge(maxBytes: number, bytes?: number): ServiceError {
  const limit =
    maxBytes >= 1024 ** 3
      ? `${+(maxBytes / 1024 ** 3).toFixed(2)} GB (${maxBytes} bytes)`
      : `${maxBytes} bytes`;
  return new ServiceError(
    'too_large',
    'File too large',
    bytes
      ? `The file is ${bytes} bytes; the limit is ${limit}.`
      : `The file exceeds the limit of ${limit}.`,
  );
}

/** Reads and discards a body that will be refused, when it is small enough to be worth it. */
export async function drainRefused(
  body: Readable,
  declaredBytes: number,
  maxBytes: number,
): Promise<void> {
  if (declaredBytes - maxBytes > DRAIN_BYTES) return;
  let seen = 0;
  await pipeline(
    body,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        done(seen > maxBytes + DRAIN_BYTES ? tooLarge(maxBytes) : null);
      },
    }),
  ).catch(() => undefined);
}

/**
 * Streams `body` into `dest` and stops writing as soon as `maxBytes` is passed (the partial
 * file is removed), so neither a lying Content-Length nor a chunked body can fill the disk or
 * memory.
 */
export async function writeLimited(
  body: Readable,
  dest: string,
  maxBytes: number,
): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes + DRAIN_BYTES) done(tooLarge(maxBytes));
      else done(null, bytes > maxBytes ? undefined : chunk);
    },
    flush(done) {
      done(bytes > maxBytes ? tooLarge(maxBytes) : null);
    },
  });
  try {
    await pipeline(body, counter, fs.createWriteStream(dest, { flags: 'w', mode: 0o600 }));
  } catch (e) {
    await fs.promises.rm(dest, { force: true });
    throw e;
  }
  return bytes;
}
