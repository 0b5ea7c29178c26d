import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { storage } from '../storage';
import { contentDisposition, contentTypeOf, isSafeKey, jobIdOfUploadTarget } from '../storage/keys';
import { verifySignature } from '../storage/signing';
import { uploadSource } from '../services/uploads/upload-source';
import { discardBody } from './body';
import { toHttpError } from './errors';
import { apiHeaders } from './headers';
import { defaultPorts } from '../services/ports';

/**
 * Signed-URL file access for local storage (app/files/[...key]): GET/HEAD with Range support
 * and PUT of a job's upload. The URL's HMAC authorises it; no API key.
 */

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      ...apiHeaders(),
      ...headers,
    },
  });
}

function fail(e: unknown): Response {
  const err = toHttpError(e);
  return json(
    err.status,
    err.details ? { error: err.message, details: err.details } : { error: err.message },
    err.headers,
  );
}

/** Checks the URL's signature for `method`; a Response when it does not authorise the request. */
function authorise(req: Request, key: string, method: 'GET' | 'PUT'): Response | null {
  const url = new URL(req.url);
  if (!isSafeKey(key)) return json(404, { error: 'Not found' });
  const verdict = verifySignature(
    {
      method,
      path: `/files/${key}`,
      expires: Number(url.searchParams.get('expires')),
      filename: url.searchParams.get('filename'),
    },
    url.searchParams.get('sig'),
  );
  if (verdict === 'expired')
    return json(403, {
      error: 'URL expired',
      details: 'Signed URLs are valid for one hour; ask the API for a new one.',
    });
  if (verdict !== 'ok')
    return json(403, {
      error: 'Invalid signature',
      details: 'The URL is not a valid signed URL for this file and method.',
    });
  return null;
}

/** Parses a single "bytes=a-b" range; null when absent, 'invalid' when unsatisfiable. */
function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return 'invalid';
  let start: number;
  let end: number;
  if (!m[1]) {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export async function serveFile(req: Request, key: string, headOnly = false): Promise<Response> {
  try {
    const denied = authorise(req, key, 'GET');
    if (denied) return denied;
    const stat = await storage().stat(key);
    if (!stat) return json(404, { error: 'Not found' });
    const headers: Record<string, string> = {
      'Content-Type': contentTypeOf(key),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=3600',
      // A stored file is served as its extension says, never sniffed into HTML or script.
      'X-Content-Type-Options': 'nosniff',
      ...apiHeaders(),
    };
    const filename = new URL(req.url).searchParams.get('filename');
    if (filename) headers['Content-Disposition'] = contentDisposition(filename);
    const range = parseRange(req.headers.get('range'), stat.bytes);
    if (range === 'invalid') {
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'Content-Range': `bytes */${stat.bytes}` },
      });
    }
    const { start, end } = range ?? { start: 0, end: stat.bytes - 1 };
    headers['Content-Length'] = String(stat.bytes === 0 ? 0 : end - start + 1);
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${stat.bytes}`;
    const status = range ? 206 : 200;
    if (headOnly || stat.bytes === 0) return new Response(null, { status, headers });
    const stream = await storage().openRead(key, { start, end });
    return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status, headers });
  } catch (e) {
    return fail(e);
  }
}

export async function receiveUpload(req: Request, key: string): Promise<Response> {
  const res = await receive(req, key);
  if (res.status >= 400) await discardBody(req);
  return res;
}

async function receive(req: Request, key: string): Promise<Response> {
  try {
    const denied = authorise(req, key, 'PUT');
    if (denied) return denied;
    const jobId = jobIdOfUploadTarget(key);
    if (!jobId)
      return json(403, { error: 'Invalid signature', details: 'Only job uploads may be PUT.' });
    if (!req.body) return json(400, { error: 'The upload is empty' });
    const length = req.headers.get('content-length');
    const body = req.body as NodeWebStream<Uint8Array>;
    const result = await uploadSource(defaultPorts, jobId, () => Readable.fromWeb(body), {
      contentLength: length ? Number(length) : undefined,
    });
    return json(200, result);
  } catch (e) {
    return fail(e);
  }
}

const FILE_METHODS = ['GET', 'HEAD', 'PUT', 'OPTIONS'];

/** The methods a signed file URL does not have: the spec's JSON 405, not Next's empty one. */
export async function otherFileMethod(req: Request): Promise<Response> {
  await discardBody(req);
  return json(
    405,
    {
      error: 'Method not allowed',
      details: 'Signed file URLs accept GET, HEAD and (for uploads) PUT.',
    },
    { Allow: FILE_METHODS.join(', ') },
  );
}

/**
 * OPTIONS on a signed file URL: its methods, in a JSON body like every answer (Next's is an empty
 * 204).
 */
export function fileOptions(): Response {
  return json(200, { allow: FILE_METHODS }, { Allow: FILE_METHODS.join(', ') });
}
