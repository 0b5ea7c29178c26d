import http from 'node:http';
import type { Socket } from 'node:net';
import { arrivalWarning } from './public-origin';
import { apiHeaders } from './headers';

/**
 * What Next.js gives no hook for, done on Node's own HTTP server before Next sees a request
 * (installed once by instrumentation.ts in the web process):
 *
 * - The peer address is stamped on every request as PEER_HEADER, overwriting anything a client
 *   sent under that name (Next keeps a client's own X-Forwarded-For), so per-address limits
 *   count real addresses.
 * - A path with broken percent-encoding and a method Next cannot route (TRACE, PROPFIND…) are
 *   answered with the spec's JSON error body; Next answered them with a text 500. Repeated
 *   slashes in an API path are collapsed (Next answered a 308 redirect).
 * - Requests Node's parser refuses (malformed request line or headers, headers over the size
 *   limit) get the JSON error body too, instead of Node's bare 400 and 431.
 * - An answer sent before the request's body has arrived whole (an error that did not need it,
 *   past what discardBody reads) says `Connection: close`: the server does not read the rest, and
 *   a keep-alive client would otherwise send its next request on a connection that is cut.
 * - The first request that arrives at another origin than PUBLIC_URL's is logged with a warning.
 * - An idle keep-alive connection is kept KEEP_ALIVE_MS instead of Node's 5 s. With 5 s, a client
 *   that took a pooled connection and then spent a few seconds before writing (a loaded host
 *   copying a 46 MB Buffer body) wrote into a connection the server had just closed: EPIPE,
 *   and no answer to read (reproduced at load 20 with fetch; a streamed body, whose headers go
 *   out at once, was not hit).
 */
export const PEER_HEADER = 'x-keyout-peer-address';

/** As load balancers keep theirs (AWS ALB 60 s); clients reuse a connection until 1 s before it. */
const KEEP_ALIVE_MS = 60_000;

const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function jsonHead(status: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    ...apiHeaders(),
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  };
}

/**
 * Answers once the request's body is in (a client still sending would see a reset), or after 1 s.
 */
function reply(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: { error: string; details: string },
  extra?: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  const send = () => {
    if (res.headersSent) return;
    res.writeHead(
      status,
      jsonHead(status, { 'Content-Length': String(Buffer.byteLength(text)), ...extra }),
    );
    res.end(text);
  };
  req.once('end', send);
  req.once('error', send);
  setTimeout(send, 1000).unref();
  req.resume();
}

const API_PATH = /^\/(api\/)?v1(\/|$)|^\/files\//;

/**
 * Next.js redirects a path with repeated slashes (/v1//jobs) with a 308 and no JSON body; an API
 * path reaches its endpoint instead, as with a trailing slash.
 */
function collapseSlashes(req: http.IncomingMessage): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathPart = q < 0 ? url : url.slice(0, q);
  if (!pathPart.includes('//')) return;
  const collapsed = pathPart.replace(/\/{2,}/g, '/');
  if (API_PATH.test(collapsed)) req.url = collapsed + (q < 0 ? '' : url.slice(q));
}

/** The path part of a request target, undecodable when its percent-encoding is broken. */
function decodablePath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const LINGER_MS = 1000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Node closes a `Connection: close` socket as soon as the answer is written. With the client's
 * body still arriving, the kernel answers that data with a reset, and a reset can reach the client
 * before it has read the answer (it then sees ECONNRESET instead of the 413). So the socket is
 * closed the way web servers do it ("lingering close"): the answer and a FIN first, then what the
 * client still sends is read and dropped for at most LINGER_MS or LINGER_BYTES.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function (this: Socket) {
    this.end();
    let dropped = 0;
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.on('data', (d: Buffer) => {
      dropped += d.length;
      if (dropped > LINGER_BYTES) this.destroy();
    });
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}

function closeWhenAnsweredEarly(req: http.IncomingMessage, res: http.ServerResponse): void {
  const { socket } = req; // req.socket is null by the time a destroyed request is answered
  // Node's implicit headers (res.end without writeHead) go through writeHead too.
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    if (!req.complete && !res.headersSent) {
      res.setHeader('Connection', 'close');
      if (!socket.destroyed) lingerOnClose(socket);
    }
    return writeHead(...args);
  };
}

/** Answers the request here when Next would answer it with something other than the spec's body. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  collapseSlashes(req);
  if (!ROUTABLE.has(req.method ?? '')) {
    reply(
      req,
      res,
      405,
      { error: 'Method not allowed', details: `The method ${req.method} is not supported.` },
      { Allow: [...ROUTABLE].join(', ') },
    );
    return true;
  }
  if (!decodablePath(req.url ?? '/')) {
    reply(req, res, 400, {
      error: 'Invalid URL',
      details: 'The request path has invalid percent-encoding.',
    });
    return true;
  }
  return false;
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request headers too large',
    'The request headers exceed the server limit.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout', 'The request was not received in time.'],
};

/** Node's 'clientError': the connection's request could not be parsed at all. */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, error, details] = CLIENT_ERRORS[err.code ?? ''] ?? [
    400,
    'Bad request',
    'The request could not be parsed as HTTP.',
  ];
  const body = JSON.stringify({ error, details });
  const head = Object.entries(
    jsonHead(status, { 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }),
  )
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}

let installed = false;

export function installNodeEdge(): void {
  if (installed) return;
  installed = true;
  const guarded = new WeakSet<http.Server>();
  // Re-applied below with its server as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event === 'connection' && !guarded.has(this)) {
      guarded.add(this);
      this.on('clientError', answerClientError);
      this.keepAliveTimeout = KEEP_ALIVE_MS;
      // A request's headers may take as long as an idle connection may wait (Node wants it longer).
      this.headersTimeout = Math.max(this.headersTimeout, KEEP_ALIVE_MS + 1000);
    } else if (event === 'request') {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
      closeWhenAnsweredEarly(req, res);
      const misdirected = arrivalWarning(req);
      if (misdirected) console.warn(misdirected);
      if (refuse(req, res)) return true;
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
