import type { IncomingMessage } from 'node:http';
import { env } from '../env';

/**
 * Signed URLs (upload_url, results) are absolute and built on PUBLIC_URL; a client given a URL
 * that does not reach the server fails its PUT. These say where the URLs point, at start-up and
 * when the first request arrives somewhere else.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function originKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${LOOPBACK.has(url.hostname) ? 'loopback' : url.hostname}:${port}`;
}

/** The start-up line: where the URLs this server hands out point. */
export function publicUrlLine(): string {
  const { PUBLIC_URL, publicUrlSet, PORT } = env();
  if (!publicUrlSet) {
    return (
      `[web] Upload and result URLs point to ${PUBLIC_URL} ` +
      "(PUBLIC_URL is not set: this server's own port). Set " +
      'PUBLIC_URL when clients reach the server under another name.'
    );
  }
  const url = new URL(PUBLIC_URL);
  if (
    LOOPBACK.has(url.hostname) &&
    originKey(url) !== originKey(new URL(`${url.protocol}//localhost:${PORT}`))
  ) {
    return (
      `[web] Warning: PUBLIC_URL is ${PUBLIC_URL} but this server ` +
      `listens on port ${PORT}: the upload and result URLs it hands ` +
      'out will not reach it.'
    );
  }
  return (
    `[web] Upload and result URLs point to ${PUBLIC_URL} ` +
    `(PUBLIC_URL); this server listens on port ${PORT}.`
  );
}

let checked = false;

/** Once per process: the warning when a request arrives at another origin than PUBLIC_URL's. */
export function arrivalWarning(req: IncomingMessage): string | null {
  if (checked) return null;
  const forwarded = (name: string) =>
    String(req.headers[name] ?? '')
      .split(',')[0]!
      .trim();
  const host = forwarded('x-forwarded-host') || req.headers.host;
  if (!host) return null;
  checked = true;
  const proto = forwarded('x-forwarded-proto') || 'http';
  let arrived: URL;
  try {
    arrived = new URL(`${proto}://${host}`);
  } catch {
    return null;
  }
  const { PUBLIC_URL } = env();
  if (originKey(arrived) === originKey(new URL(PUBLIC_URL))) return null;
  return (
    `[web] Warning: requests arrive at ${arrived.origin} but upload ` +
    `and result URLs point to ${PUBLIC_URL}; clients that cannot ` +
    `reach ${PUBLIC_URL} will fail their uploads. Set PUBLIC_URL to ` +
    'the origin clients use.'
  );
}
