import { findActiveApiKey, touchApiKey } from '../auth/api-keys';
import { env } from '../env';
import { discardBody } from './body';
import { HttpError, toHttpError, type ErrorBody } from './errors';
import { PEER_HEADER } from './node-edge';
import { hit, peek, stateOf, unhit, type WindowState } from './rate-limit';
import { API_VERSION } from './version';

/**
 * The one wrapper every /v1 route goes through: throttle addresses that keep sending bad keys →
 * authenticate X-Api-Key → rate-limit → run the handler (parse + one service call) → map errors
 * to the spec's error body. Every response, errors and 401s included, carries the version and
 * rate-limit headers.
 */
export interface ApiContext<P> {
  req: Request;
  userId: string;
  keyId: string;
  params: P;
}

export interface ApiReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteOptions {
  /** The route starts processing: also limited to STARTS_PER_MINUTE accepted starts per key. */
  countsAsStart?: boolean;
}

type Handler<P> = (ctx: ApiContext<P>) => Promise<ApiReply>;
type RouteContext<P> = { params: Promise<P> };

function rateHeaders(w: WindowState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(w.limit),
    'X-RateLimit-Remaining': String(w.remaining),
    'X-RateLimit-Reset': String(w.resetAt),
  };
}

function respond(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-API-Version': API_VERSION, ...headers },
  });
}

function errorResponse(status: number, body: ErrorBody, headers: Record<string, string>): Response {
  return respond(status, body.details ? body : { error: body.error }, headers);
}

/** A key sent under another header name (e.g. Authorization) is a wrong key, not a missing one. */
function keyUnderWrongHeader(req: Request): boolean {
  if (req.headers.has('authorization')) return true;
  for (const [, value] of req.headers) if (/\bko_[A-Za-z0-9]{8,}/.test(value)) return true;
  return false;
}

/**
 * The client's address: the connection's own (stamped by node-edge.ts), or behind
 * TRUST_PROXY_HOPS reverse proxies the address the outermost trusted one appended.
 */
export function clientAddress(req: Request): string {
  const hops = env().TRUST_PROXY_HOPS;
  if (hops > 0) {
    const chain = (req.headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const appended = chain[chain.length - hops];
    if (appended) return appended;
  }
  return req.headers.get(PEER_HEADER) || 'unknown';
}

const retryIn = (w: WindowState) => String(Math.max(1, w.resetAt - Math.floor(Date.now() / 1000)));

export function apiRoute<P = Record<string, never>>(handler: Handler<P>, opts: RouteOptions = {}) {
  const answer = answerer(handler, opts);
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const res = await answer(req, route);
    if (res.status >= 400) await discardBody(req);
    return res;
  };
}

function answerer<P>(handler: Handler<P>, opts: RouteOptions) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const { RATE_LIMIT_PER_MINUTE, STARTS_PER_MINUTE, AUTH_FAILURES_PER_MINUTE } = env();
    let headers = rateHeaders(stateOf(0, RATE_LIMIT_PER_MINUTE));
    let startBucket: string | null = null;
    try {
      // An address that keeps sending missing or wrong keys is refused before its key is looked
      // at: a guess then costs nothing and tells nothing.
      const failures = `auth-fail:${clientAddress(req)}`;
      const failed = peek(failures, AUTH_FAILURES_PER_MINUTE);
      if (failed.count >= AUTH_FAILURES_PER_MINUTE) {
        return errorResponse(
          429,
          {
            error: 'Rate limit exceeded',
            details: `Too many requests without a valid API key from this address (at most ${AUTH_FAILURES_PER_MINUTE} a minute); retry in ${retryIn(failed)} s.`,
          },
          { ...headers, 'Retry-After': retryIn(failed) },
        );
      }
      const presented = req.headers.get('x-api-key')?.trim();
      const key = presented ? await findActiveApiKey(presented) : null;
      if (!key) {
        hit(failures, AUTH_FAILURES_PER_MINUTE);
        const error = presented || keyUnderWrongHeader(req) ? 'Invalid API key' : 'API key required';
        return errorResponse(401, { error }, headers);
      }

      const window = hit(`req:${key.keyId}`, RATE_LIMIT_PER_MINUTE);
      headers = rateHeaders(window);
      if (window.count > RATE_LIMIT_PER_MINUTE) {
        return errorResponse(
          429,
          { error: 'Rate limit exceeded', details: `At most ${RATE_LIMIT_PER_MINUTE} requests per minute per API key; retry in ${retryIn(window)} s.` },
          { ...headers, 'Retry-After': retryIn(window) },
        );
      }
      await touchApiKey(key.keyId);

      if (opts.countsAsStart) {
        const starts = hit(`start:${key.keyId}`, STARTS_PER_MINUTE);
        startBucket = `start:${key.keyId}`;
        if (starts.count > STARTS_PER_MINUTE) {
          return errorResponse(
            429,
            {
              error: 'Rate limit exceeded',
              details: `At most ${STARTS_PER_MINUTE} video processing jobs per minute per API key; retry in ${retryIn(starts)} s.`,
            },
            { ...headers, 'Retry-After': retryIn(starts) },
          );
        }
      }

      const reply = await handler({ req, userId: key.userId, keyId: key.keyId, params: await route.params });
      startBucket = null; // an accepted start keeps its place in the window
      return respond(reply.status ?? 200, reply.body, { ...headers, ...reply.headers });
    } catch (e) {
      const err = toHttpError(e);
      return errorResponse(err.status, { error: err.message, details: err.details }, { ...headers, ...err.headers });
    } finally {
      // A refused or failed start does not use up one of the per-minute starts.
      if (startBucket) unhit(startBucket);
    }
  };
}

/** A /v1 route that needs no key (e.g. the OpenAPI document): the same headers and error body, no rate window. */
export function publicRoute(handler: (req: Request) => ApiReply) {
  return (req: Request): Response => {
    try {
      const reply = handler(req);
      return respond(reply.status ?? 200, reply.body, reply.headers ?? {});
    } catch (e) {
      const err = toHttpError(e);
      return errorResponse(err.status, { error: err.message, details: err.details }, err.headers);
    }
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
/** Mounted on routes with and without params, so it takes any. */
type PlainHandler = ReturnType<typeof apiRoute<unknown>>;

const notAllowed = (req: Request, allow: string) =>
  new HttpError(405, 'Method not allowed', `${new URL(req.url).pathname} accepts ${allow}.`, { Allow: allow });

/**
 * Handlers for the methods a /v1 path does not have: like any endpoint they check the key and
 * count against the rate limit first, then answer 405 with the spec's JSON body (Next.js would
 * answer an empty 405). A public path (`{ public: true }`, the OpenAPI document) has no key to
 * check and answers 405 at once. Usage in a route file:
 * `export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');`
 */
export function otherMethods(...allowed: (Method | { public: true })[]): Record<Method, PlainHandler> {
  const methods = allowed.filter((m): m is Method => typeof m === 'string');
  const allow = methods.join(', ');
  const unkeyed = publicRoute((req) => {
    throw notAllowed(req, allow);
  });
  const refuse: PlainHandler =
    methods.length < allowed.length
      ? (req) => Promise.resolve(unkeyed(req))
      : apiRoute<unknown>(({ req }) => {
          throw notAllowed(req, allow);
        });
  return Object.fromEntries(METHODS.map((m) => [m, refuse])) as Record<Method, PlainHandler>;
}

/** Every method of a path under /v1 that is not an endpoint: after the key check, the spec's 404 body. */
export const noEndpoint: PlainHandler = apiRoute<unknown>(({ req }) => {
  throw new HttpError(404, 'Not found', `There is no API endpoint ${req.method} ${new URL(req.url).pathname}.`);
});
