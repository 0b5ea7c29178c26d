import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '../env';
import { HttpError } from './errors';
import { multipartFile } from './multipart';

const BOUNDARY = 'keyoutboundary';
const head = (name: string, filename = 'clip.mp4') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; ` +
  `name="${name}"; filename="${filename}"\r\nContent-Type: ` +
  'video/mp4\r\n\r\n';
const tail = `\r\n--${BOUNDARY}--\r\n`;

/** A multipart request whose body is `parts`, then (optionally) `filler` bytes made on demand. */
function formRequest(parts: (string | Uint8Array)[], filler = 0) {
  const pulled = { bytes: 0 };
  const queue = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p));
  let left = filler;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      let next = queue.shift();
      if (!next && left > 0) {
        next = new Uint8Array(Math.min(64 * 1024, left)).fill(7);
        left -= next.byteLength;
      }
      if (!next) return c.close();
      pulled.bytes += next.byteLength;
      c.enqueue(next);
    },
  });
  const req = new Request('http://x/v1/jobs', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { req, pulled };
}

async function drain(body: NodeJS.ReadableStream): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += (chunk as Buffer).length;
  return n;
}

beforeEach(() => {
  process.env.MAX_UPLOAD_BYTES = String(1024 * 1024);
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.MAX_UPLOAD_BYTES;
  resetEnvForTests();
});

describe('multipartFile', () => {
  it('streams the file field', async () => {
    const { req } = formRequest([head('file'), new Uint8Array(1000).fill(1), tail]);
    const file = await multipartFile(req);
    expect(file).toMatchObject({ filename: 'clip.mp4', contentType: 'video/mp4' });
    expect(await drain(file.body)).toBe(1000);
  });

  it(
    'a form cut off inside the file: the file stream fails with a ' + '400, not a bare error',
    async () => {
      const { req } = formRequest([head('file'), new Uint8Array(1000).fill(1)]);
      const file = await multipartFile(req);
      const err = await drain(file.body).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 400, message: 'Incomplete multipart upload' });
    },
  );

  it(
    'a form cut off before the caller starts reading: no uncaught ' +
      'error, the caller still sees the 400',
    async () => {
      const { req } = formRequest([head('file'), new Uint8Array(1000).fill(1)]);
      const uncaught: unknown[] = [];
      const onUncaught = (e: unknown) => uncaught.push(e);
      process.on('uncaughtException', onUncaught);
      try {
        const file = await multipartFile(req);
        await new Promise((r) => setTimeout(r, 100)); // the caller is busy (creating its job row)
        const err = await pipeline(
          file.body,
          new Writable({ write: (_c, _e, done) => done() }),
        ).catch((e: unknown) => e);
        expect(err).toMatchObject({ status: 400, message: 'Incomplete multipart upload' });
      } finally {
        process.off('uncaughtException', onUncaught);
      }
      expect(uncaught).toEqual([]);
    },
  );

  it('a form cut off before any file, or not a form at all, is a 400', async () => {
    await expect(
      multipartFile(formRequest([`--${BOUNDARY}\r\nContent-Disposition: form-da`]).req),
    ).rejects.toMatchObject({ status: 400 });
    await expect(multipartFile(formRequest([head('other'), 'x', tail]).req)).rejects.toMatchObject({
      status: 400,
      message: 'The multipart form needs a file field named "file"',
    });
    const notForm = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    await expect(multipartFile(notForm)).rejects.toMatchObject({ status: 400 });
  });

  it('stops reading after 1 MiB of other fields before the file', async () => {
    const field = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n`;
    const { req, pulled } = formRequest([field], 256 * 1024 * 1024);
    await expect(multipartFile(req)).rejects.toMatchObject({ status: 400 });
    expect(pulled.bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('stops reading the request soon after the file passes MAX_UPLOAD_BYTES', async () => {
    const { req, pulled } = formRequest([head('file')], 256 * 1024 * 1024);
    const file = await multipartFile(req);
    await expect(drain(file.body)).rejects.toMatchObject({
      kind: 'too_large',
      message: 'File too large',
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(pulled.bytes).toBeLessThan(8 * 1024 * 1024);
  });
});
