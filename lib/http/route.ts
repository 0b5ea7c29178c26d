import { findActiveApiKey, touchApiKey } from '../auth/api-keys';
import { env } from '../env';
import { toHttpError, type ErrorBody } from './errors';
import { hit, stateOf, unhit, type WindowState } from './rate-limit';

/**
 * The one wrapper every /v1 route goes through: authenticate X-Api-Key → rate-limit → run the
 * handler (parse + one service call) → map errors to the spec's error body. Every response,
 * errors and 401s included, carries the version and rate-limit headers.
 */
export const API_VERSION = '1.6.0';

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

export function apiRoute<P = Record<string, never>>(handler: Handler<P>, opts: RouteOptions = {}) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const { RATE_LIMIT_PER_MINUTE, STARTS_PER_MINUTE } = env();
    let headers = rateHeaders(stateOf(0, RATE_LIMIT_PER_MINUTE));
    let startBucket: string | null = null;
    try {
      const presented = req.headers.get('x-api-key')?.trim();
      if (!presented) {
        const error = keyUnderWrongHeader(req) ? 'Invalid API key' : 'API key required';
        return errorResponse(401, { error }, headers);
      }
      const key = await findActiveApiKey(presented);
      if (!key) return errorResponse(401, { error: 'Invalid API key' }, headers);

      const window = await hit(`req:${key.keyId}`, RATE_LIMIT_PER_MINUTE);
      headers = rateHeaders(window);
      if (window.count > RATE_LIMIT_PER_MINUTE) {
        const retryAfter = String(Math.max(1, window.resetAt - Math.floor(Date.now() / 1000)));
        return errorResponse(
          429,
          { error: 'Rate limit exceeded', details: `At most ${RATE_LIMIT_PER_MINUTE} requests per minute per API key; retry in ${retryAfter} s.` },
          { ...headers, 'Retry-After': retryAfter },
        );
      }
      await touchApiKey(key.keyId);

      if (opts.countsAsStart) {
        const starts = await hit(`start:${key.keyId}`, STARTS_PER_MINUTE);
        startBucket = `start:${key.keyId}`;
        if (starts.count > STARTS_PER_MINUTE) {
          const retryAfter = String(Math.max(1, starts.resetAt - Math.floor(Date.now() / 1000)));
          return errorResponse(
            429,
            {
              error: 'Rate limit exceeded',
              details: `At most ${STARTS_PER_MINUTE} video processing jobs per minute per API key; retry in ${retryAfter} s.`,
            },
            { ...headers, 'Retry-After': retryAfter },
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
      if (startBucket) await unhit(startBucket).catch(() => undefined);
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
type PlainHandler = (req: Request) => Response;

/**
 * Handlers for the methods a /v1 path does not have. Next.js would answer them 405 with an
 * empty body, and clients parse every error as the spec's JSON body. Usage in a route file:
 * `export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');`
 */
export function otherMethods(...allowed: Method[]): Record<Method, PlainHandler> {
  const allow = allowed.join(', ');
  const refuse: PlainHandler = (req) =>
    errorResponse(
      405,
      { error: 'Method not allowed', details: `${new URL(req.url).pathname} accepts ${allow}.` },
      { Allow: allow },
    );
  return Object.fromEntries(METHODS.map((m) => [m, refuse])) as Record<Method, PlainHandler>;
}

/** Every method of a path under /v1 that is not an endpoint: the spec's 404 body, not a page. */
export const noEndpoint: PlainHandler = (req) =>
  errorResponse(404, { error: 'Not found', details: `There is no API endpoint ${req.method} ${new URL(req.url).pathname}.` }, {});
