import { describe, expect, it } from 'vitest';
import { readJson } from './body';
import { HttpError } from './errors';

/** A chunked body of `total` bytes made on demand, counting how much the reader pulled. */
function lazyBody(total: number, chunk = 64 * 1024) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled.bytes >= total) return c.close();
      const n = Math.min(chunk, total - pulled.bytes);
      pulled.bytes += n;
      c.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  const req = new Request('http://x/v1/jobs', {
    method: 'POST',
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { req, pulled };
}

describe('readJson', () => {
  it('stops reading a chunked body at the 1 MiB cap instead of reading it whole', async () => {
    const { req, pulled } = lazyBody(64 * 1024 * 1024);
    const err = await readJson(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 413, message: 'Request body too large' });
    expect(pulled.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a declared length over the cap before reading the body', async () => {
    const { req, pulled } = lazyBody(64 * 1024 * 1024);
    const declared = new Request(req, { headers: { 'content-length': String(5 * 1024 * 1024) } });
    await expect(readJson(declared)).rejects.toMatchObject({ status: 413 });
    expect(pulled.bytes).toBeLessThan(1024 * 1024);
  });

  it('reads JSON, an empty body as {}, and refuses bad JSON and bad UTF-8 with 400', async () => {
    const post = (body: BodyInit | null) => new Request('http://x/', { method: 'POST', body });
    expect(await readJson(post('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJson(post(null))).toEqual({});
    expect(await readJson(post('  '))).toEqual({});
    await expect(readJson(post('{"a":'))).rejects.toMatchObject({
      status: 400,
      message: 'Invalid JSON body',
    });
    await expect(readJson(post(new Uint8Array([0x22, 0xff, 0x22])))).rejects.toMatchObject({
      status: 400,
    });
  });
});
