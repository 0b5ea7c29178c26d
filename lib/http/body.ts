import { HttpError } from './errors';

export const MAX_JSON_BYTES = 1024 * 1024;

const tooLarge = () =>
  new HttpError(
    413,
    'Request body too large',
    `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`,
  );

/**
 * The body's bytes, counted while they stream in: past `maxBytes` the read stops at once and
 * 413 is thrown, whatever Content-Length said (a chunked body has none, and a header can lie).
 */
export async function readCapped(
  req: Request,
  maxBytes: number,
  onTooLarge: () => Error,
): Promise<Uint8Array> {
  if (Number(req.headers.get('content-length') ?? 0) > maxBytes) throw onTooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw onTooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/**
 * The JSON body of a request, or {} when there is none (SDKs send Content-Type: application/json
 * on bodiless requests too). At most MAX_JSON_BYTES, counted as the body streams in.
 */
export async function readJson(req: Request): Promise<unknown> {
  const bytes = await readCapped(req, MAX_JSON_BYTES, tooLarge);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'Invalid JSON body', 'The request body is not valid UTF-8.');
  }
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Invalid JSON body', 'The request body is not valid JSON.');
  }
}

/**
 * Reads and drops what is left of a body the answer does not need (an error answered before the
 * body was read), up to `maxBytes`: a client still sending it then reads the answer instead of
 * a reset connection. Beyond that the connection may be cut. A body another reader has taken
 * (an upload refused part-way) is that reader's: the answer then closes the connection
 * (node-edge.ts) instead of reading on.
 */
export async function discardBody(req: Request, maxBytes = 1024 * 1024): Promise<void> {
  if (!req.body || req.bodyUsed || req.body.locked) return;
  const reader = req.body.getReader();
  let seen = 0;
  try {
    while (seen <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // the client went away
  }
}

/** Query parameters as a plain object for schema parsing. */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}
