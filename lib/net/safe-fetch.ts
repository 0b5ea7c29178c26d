import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { env } from '../env';
import { isMetadataAddress, judgeAddress, parseIpLiteral } from './address';

/** A fetch that failed; the message is safe to show to the user. */
export class FetchError extends Error {
  override name = 'FetchError';
  /** True when trying again later may succeed (timeouts, 5xx, connection resets). */
  readonly transient: boolean;
  constructor(message: string, transient = false) {
    super(message);
    this.transient = transient;
  }
}

/** The URL may not be fetched at all (scheme, address, HTTPS rule). Never transient. */
export class UnsafeUrlError extends FetchError {
  override name = 'UnsafeUrlError';
  constructor(message: string) {
    super(message, false);
  }
}

/**
 * The address rules in force. Production code takes them from env (`policyFromEnv`);
 * `treatAsPublic` exists only so tests can stand up an "allowed" first hop on a loopback
 * address and prove that a redirect from it to another private address is still refused.
 */
export interface NetPolicy {
  /**
   * KEYOUT_ALLOW_PRIVATE_URLS=1: any address but cloud metadata, plain http everywhere (tests, LAN
   * self-hosting).
   */
  allowPrivate: boolean;
  requireHttps: boolean;
  treatAsPublic?: readonly string[];
}

export function policyFromEnv(opts: { requireHttps?: boolean } = {}): NetPolicy {
  const allowPrivate = env().KEYOUT_ALLOW_PRIVATE_URLS;
  return { allowPrivate, requireHttps: Boolean(opts.requireHttps) && !allowPrivate };
}

const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 120_000;
/** Time allowed from starting a hop to receiving its response headers (DNS + connect + TLS). */
const CONNECT_TIMEOUT_MS = 10_000;

function checkAddress(address: string, host: string, policy: NetPolicy): void {
  // Metadata endpoints hand out the host's credentials: no setting makes them reachable.
  if (isMetadataAddress(address)) {
    throw new UnsafeUrlError(
      `The URL's host ${host} points to a cloud metadata address, which is never fetched.`,
    );
  }
  if (policy.allowPrivate) return;
  const ip = parseIpLiteral(address);
  if (ip && policy.treatAsPublic?.includes(ip.toString())) return;
  const verdict = judgeAddress(address);
  if (!verdict.allowed) {
    throw new UnsafeUrlError(
      `The URL's host ${host} points to ${verdict.reason}; only ` +
        'public internet addresses can be fetched.',
    );
  }
}

/** Parses and checks everything about a URL that can be checked without the network. */
export function checkUrl(raw: string, policy: NetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeUrlError('Only http and https URLs can be fetched.');
  }
  if (policy.requireHttps && url.protocol !== 'https:') {
    throw new UnsafeUrlError('The URL must use HTTPS.');
  }
  if (url.username || url.password) {
    throw new UnsafeUrlError('URLs with embedded credentials are not accepted.');
  }
  // The WHATWG parser has already normalised decimal, hex, octal and short IPv4 forms.
  if (parseIpLiteral(url.hostname)) checkAddress(url.hostname, url.hostname, policy);
  return url;
}

/**
 * A DNS lookup that refuses the whole answer when any address in it is not allowed. The socket
 * connects to exactly the addresses checked here, so a second, different answer (DNS rebinding)
 * can never be used.
 */
function checkedLookup(policy: NetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      try {
        if (addresses.length === 0) throw new FetchError(`The host ${hostname} did not resolve.`);
        for (const a of addresses) checkAddress(a.address, hostname, policy);
      } catch (e) {
        return callback(e as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

async function resolveChecked(url: URL, policy: NetPolicy): Promise<void> {
  if (parseIpLiteral(url.hostname)) return; // literal: checked by checkUrl
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(url.hostname, { all: true });
  } catch {
    throw new UnsafeUrlError(`The host ${url.hostname} could not be resolved.`);
  }
  if (addresses.length === 0)
    throw new UnsafeUrlError(`The host ${url.hostname} could not be resolved.`);
  for (const a of addresses) checkAddress(a.address, url.hostname, policy);
}

/**
 * Throws UnsafeUrlError unless the URL is http(s) (https when required) and its host resolves
 * only to public addresses. A check at submission time; every fetch checks again at connect time.
 */
export async function assertFetchableUrl(
  url: string,
  opts: { requireHttps?: boolean } = {},
): Promise<void> {
  const policy = policyFromEnv(opts);
  await resolveChecked(checkUrl(url, policy), policy);
}

interface HopRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
}

/** One request to one already-checked URL; resolves with the response once headers arrive. */
function requestOnce(
  url: URL,
  req: HopRequest,
  policy: NetPolicy,
  signal: AbortSignal,
  connectTimeoutMs: number,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const request = mod.request(url, {
      method: req.method,
      headers: req.headers,
      // A fresh connection each time: a pooled socket must never bypass the address check.
      agent: false,
      lookup: checkedLookup(policy),
      signal,
    });
    const timer = setTimeout(() => {
      request.destroy(new FetchError(`Connecting to ${url.host} timed out.`, true));
    }, connectTimeoutMs);
    request.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    request.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    request.end(req.body);
  });
}

function describeNetworkError(e: unknown, signal: AbortSignal, outer?: AbortSignal): FetchError {
  if (e instanceof FetchError) return e;
  if (outer?.aborted) return new FetchError('The download was cancelled.', true);
  if (signal.aborted) return new FetchError('The download timed out.', true);
  const code = (e as NodeJS.ErrnoException).code;
  return new FetchError(`The server could not be reached${code ? ` (${code})` : ''}.`, true);
}

/** Counts decoded bytes and stops the stream when the cap is passed. */
function byteCap(maxBytes: number, counter: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      counter.bytes += chunk.length;
      if (counter.bytes > maxBytes) {
        cb(new FetchError(`The file is larger than the limit of ${maxBytes} bytes.`));
        return;
      }
      cb(null, chunk);
    },
  });
}

function decoderFor(encoding: string | undefined): Transform | null {
  const e = (encoding ?? 'identity').trim().toLowerCase();
  if (e === 'identity' || e === '') return null;
  if (e === 'gzip' || e === 'x-gzip') return zlib.createGunzip();
  if (e === 'deflate') return zlib.createInflate();
  if (e === 'br') return zlib.createBrotliDecompress();
  throw new FetchError(`The server sent an unsupported content encoding (${e}).`);
}

/**
 * Follows redirects by hand, checking every hop's URL and (at connect time) every hop's
 * resolved address, and returns the final 2xx response.
 */
async function openFollowing(
  raw: string,
  policy: NetPolicy,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  let url = checkUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    const res = await requestOnce(
      url,
      {
        method: 'GET',
        headers: {
          'User-Agent': 'Keyout-Fetch/1.0',
          'Accept-Encoding': 'gzip, deflate, br',
          Accept: '*/*',
        },
      },
      policy,
      signal,
      CONNECT_TIMEOUT_MS,
    );
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= MAX_REDIRECTS)
        throw new FetchError(`The URL redirected more than ${MAX_REDIRECTS} times.`);
      url = checkUrl(new URL(res.headers.location, url).toString(), policy);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new FetchError(`The server answered HTTP ${status}.`, status >= 500 || status === 429);
    }
    return res;
  }
}

/** Downloads with the given rules; `safeFetchToFile` is this with the rules from env. */
export async function fetchToFile(
  url: string,
  dest: string,
  opts: { maxBytes: number; timeoutMs?: number; signal?: AbortSignal },
  policy: NetPolicy,
): Promise<{ bytes: number; contentType: string | null }> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const counter = { bytes: 0 };
  try {
    const res = await openFollowing(url, policy, signal);
    const declared = Number(res.headers['content-length']);
    if (!res.headers['content-encoding'] && Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw new FetchError(`The file is larger than the limit of ${opts.maxBytes} bytes.`);
    }
    const decoder = decoderFor(res.headers['content-encoding']);
    // The cap applies to the raw bytes too, and, what matters, to the decoded bytes.
    const stages = [res, byteCap(opts.maxBytes, { bytes: 0 }), ...(decoder ? [decoder] : [])];
    await pipeline([...stages, byteCap(opts.maxBytes, counter), fs.createWriteStream(dest)], {
      signal,
    });
    return { bytes: counter.bytes, contentType: res.headers['content-type'] ?? null };
  } catch (e) {
    await fs.promises.rm(dest, { force: true });
    if (e instanceof FetchError) throw e;
    if ((e as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      throw new FetchError('The server sent a corrupt compressed response.');
    }
    throw describeNetworkError(e, signal, opts.signal);
  }
}

/**
 * Downloads an untrusted URL to `dest`: http(s) only, public addresses only (checked after DNS on
 * every redirect hop, and the socket connects to the checked address), the byte cap enforced on
 * the decoded stream, connect and total timeouts. Rules relaxed by KEYOUT_ALLOW_PRIVATE_URLS=1.
 */
export async function safeFetchToFile(
  url: string,
  dest: string,
  opts: { maxBytes: number; timeoutMs?: number; signal?: AbortSignal },
): Promise<{ bytes: number; contentType: string | null }> {
  return fetchToFile(url, dest, opts, policyFromEnv());
}

/**
 * The first `bytes` bytes (decoded) of an untrusted URL and its Content-Type, under the same
 * rules as safeFetchToFile; the rest of the body is never read. For checking what a URL is.
 */
export async function safeFetchHead(
  url: string,
  opts: { bytes: number; timeoutMs?: number },
): Promise<{ head: Buffer; contentType: string | null }> {
  const signal = AbortSignal.timeout(opts.timeoutMs ?? CONNECT_TIMEOUT_MS * 2);
  let res: http.IncomingMessage | undefined;
  try {
    res = await openFollowing(url, policyFromEnv(), signal);
    const decoder = decoderFor(res.headers['content-encoding']);
    const body: NodeJS.ReadableStream = decoder ? res.pipe(decoder) : res;
    const chunks: Buffer[] = [];
    let got = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      got += chunk.length;
      if (got >= opts.bytes) break;
    }
    return {
      head: Buffer.concat(chunks).subarray(0, opts.bytes),
      contentType: res.headers['content-type'] ?? null,
    };
  } catch (e) {
    if (e instanceof FetchError) throw e;
    if ((e as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw new FetchError('The server sent a corrupt compressed response.');
    throw describeNetworkError(e, signal);
  } finally {
    res?.destroy();
  }
}

/**
 * POSTs a small JSON body without following redirects (a 3xx is an answer, not a success).
 * Used for webhooks; the same address rules apply at connect time.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; policy: NetPolicy },
): Promise<{ status: number }> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const target = checkUrl(url, opts.policy);
  const payload = Buffer.from(body);
  try {
    const res = await requestOnce(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(payload.length) },
        body: payload,
      },
      opts.policy,
      signal,
      opts.timeoutMs,
    );
    res.resume(); // the receiver's body is not used
    return { status: res.statusCode ?? 0 };
  } catch (e) {
    if (e instanceof FetchError) throw e;
    if (signal.aborted) throw new FetchError(`No answer within ${opts.timeoutMs / 1000} s.`, true);
    throw describeNetworkError(e, signal);
  }
}
