import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../services/errors';

export function tooLarge(maxBytes: number, bytes?: number): ServiceError {
  const limit = maxBytes >= 1024 ** 3 ? `${+(maxBytes / 1024 ** 3).toFixed(2)} GB` : `${maxBytes} bytes`;
  return new ServiceError(
    'too_large',
    'File too large',
    bytes ? `The file is ${bytes} bytes; the limit is ${limit}.` : `The file exceeds the limit of ${limit}.`,
  );
}

/**
 * Streams `body` into `dest` and stops as soon as `maxBytes` is passed (the partial file is
 * removed), so neither a lying Content-Length nor a chunked body can fill the disk or memory.
 */
export async function writeLimited(body: Readable, dest: string, maxBytes: number): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
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
