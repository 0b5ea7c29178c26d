import { findActiveApiKey, touchApiKey } from '../auth/api-keys';
import { env } from '../env';
import type { ZodType } from 'zod';
import { discardBody, readJson } from './body';
import { HttpError, toHttpError, type ErrorBody } from './errors';
import { apiHeaders } from './headers';
import { PEER_HEADER } from './node-edge';
import { hit, unhit, type WindowState } from './rate-limit';

/**
 * The one wrapper every /v1 route goes through: authenticate X-Api-Key (an address that keeps
 * sending wrong keys is throttled) → rate-limit → run the handler (parse + one service call) →
 * map errors to the spec's error body. Every response, errors and 401s included, carries the
 * version and rate-limit headers.
 */
export interface ApiContext<P> {
  req: Request;
  userId: string;
  keyId: string;
  params: P;
  /**
   * Counts a new start against STARTS_PER_MINUTE and throws 429 past it. A route that starts
   * processing calls it once it knows the request starts something: a replay of a start that
   * already happened changes nothing and costs nothing. A start that then fails is taken back.
   */
  admitStart: () => () => void;
}

export interface ApiReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Handler<P> = (ctx: ApiContext<P>) => Promise<ApiReply>;
type RouteContext<P> = { params: Promise<P> };

function respond(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

function errorResponse(status: number, body: ErrorBody, headers: Record<string, string>): Response {
  return respond(status, body.details ? body : { error: body.error }, headers);
}

/** Headers whose names say "key" for reasons of their own: never an attempt at the API key. */
const NOT_THE_KEY = new Set(['idempotency-key', PEER_HEADER]);

/**
 * A key sent under another header name is a wrong key, not a missing one: any header plainly
 * meant as the key (a name with "key" or "auth" in it: Api-Key, Authorization, X-Auth-Token),
 * or any value that looks like one of our keys.
 */
function keyUnderWrongHeader(req: Request): boolean {
  for (const [name, value] of req.headers) {
    if (/key|auth/i.test(name) && !NOT_THE_KEY.has(name)) return true;
    if (/\bko_[A-Za-z0-9]{8,}/.test(value)) return true;
  }
  return false;
}

/**
 * The client's address: the connection's own (stamped by node-edge.ts), or behind
 * TRUST_PROXY_HOPS reverse proxies the address the outermost trusted one appended.
 */
export function clientAddress(req: Request): string {
  const hops = env().TRUST_PROXY_HOPS;
  if (hops > 0) {
    const chain = (req.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const appended = chain[chain.length - hops];
    if (appended) return appended;
  }
  return req.headers.get(PEER_HEADER) || 'unknown';
}

const retryIn = (w: WindowState) => String(Math.max(1, w.resetAt - Math.floor(Date.now() / 1000)));

export function apiRoute<P = Record<string, never>>(handler: Handler<P>) {
  const answer = answerer(handler);
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const res = await answer(req, route);
    if (res.status >= 400) await discardBody(req);
    return res;
  };
}

/**
 * A POST on one of the caller's jobs (`/v1/jobs/{id}/…`): its JSON body parsed by `request`,
 * handed to `run` with the caller and the job's id, and the result shaped by `reply`.
 */
export function jobBodyRoute<Body, Reply>(
  request: ZodType<Body>,
  reply: ZodType<Reply>,
  run: (userId: string, jobId: string, body: Body) => Promise<Reply>,
) {
  return apiRoute<{ id: string }>(async ({ req, userId, params }) => ({
    body: reply.parse(await run(userId, params.id, request.parse(await readJson(req)))),
  }));
}

/**
 * The answer to a request without a valid key: 401, or 429 once its address has sent
 * AUTH_FAILURES_PER_MINUTE of them this minute. Only such requests are counted and refused, so
 * a good key is never locked out by wrong ones from the same address (behind a reverse proxy
 * every client may share one).
 */
function refuseKey(
  req: Request,
  presented: string | undefined,
  headers: Record<string, string>,
): Response {
  const { AUTH_FAILURES_PER_MINUTE } = env();
  const failed = hit(`auth-fail:${clientAddress(req)}`, AUTH_FAILURES_PER_MINUTE);
  if (failed.count > AUTH_FAILURES_PER_MINUTE) {
    return errorResponse(
      429,
      {
        error: 'Rate limit exceeded',
        details:
          'Too many requests without a valid API key from this address ' +
          `(at most ${AUTH_FAILURES_PER_MINUTE} a minute); retry in ` +
          `${retryIn(failed)} s.`,
      },
      { ...headers, 'Retry-After': retryIn(failed) },
    );
  }
  return errorResponse(
    401,
    { error: presented || keyUnderWrongHeader(req) ? 'Invalid API key' : 'API key required' },
    headers,
  );
}

function answerer<P>(handler: Handler<P>) {
  return async (req: Request, route: RouteContext<P>): Promise<Response> => {
    const { RATE_LIMIT_PER_MINUTE, STARTS_PER_MINUTE } = env();
    let headers = apiHeaders();
    let startBucket: string | null = null;
    try {
      const presented = req.headers.get('x-api-key')?.trim();
      const key = presented ? await findActiveApiKey(presented) : null;
      if (!key) return refuseKey(req, presented, headers);

      const window = hit(`req:${key.keyId}`, RATE_LIMIT_PER_MINUTE);
      headers = apiHeaders(window);
      if (window.count > RATE_LIMIT_PER_MINUTE) {
        return errorResponse(
          429,
          {
            error: 'Rate limit exceeded',
            details:
              `At most ${RATE_LIMIT_PER_MINUTE} requests per minute per API ` +
              `key; retry in ${retryIn(window)} s.`,
          },
          { ...headers, 'Retry-After': retryIn(window) },
        );
      }
      await touchApiKey(key.keyId);

      const giveBack = () => {
        if (startBucket) unhit(startBucket);
        startBucket = null;
      };
      const admitStart = () => {
        if (startBucket) return giveBack;
        startBucket = `start:${key.keyId}`;
        const starts = hit(startBucket, STARTS_PER_MINUTE);
        if (starts.count > STARTS_PER_MINUTE) {
          throw new HttpError(
            429,
            'Rate limit exceeded',
            `At most ${STARTS_PER_MINUTE} video processing jobs per minute ` +
              `per API key; retry in ${retryIn(starts)} s.`,
            { 'Retry-After': retryIn(starts) },
          );
        }
        return giveBack;
      };
      const reply = await handler({
        req,
        userId: key.userId,
        keyId: key.keyId,
        params: await route.params,
        admitStart,
      });
      startBucket = null; // an accepted start keeps its place in the window
      return respond(reply.status ?? 200, reply.body, { ...headers, ...reply.headers });
    } catch (e) {
      const err = toHttpError(e);
      return errorResponse(
        err.status,
        { error: err.message, details: err.details },
        { ...headers, ...err.headers },
      );
    } finally {
      // A refused or failed start does not use up one of the per-minute starts.
      if (startBucket) unhit(startBucket);
    }
  };
}

/**
 * A /v1 route that needs no key (e.g. the OpenAPI document): the same headers and error body, no
 * key's window used.
 */
export function publicRoute(handler: (req: Request) => ApiReply) {
  return (req: Request): Response => {
    try {
      const reply = handler(req);
      return respond(reply.status ?? 200, reply.body, { ...apiHeaders(), ...reply.headers });
    } catch (e) {
      const err = toHttpError(e);
      return errorResponse(
        err.status,
        { error: err.message, details: err.details },
        { ...apiHeaders(), ...err.headers },
      );
    }
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
/** Mounted on routes with and without params, so it takes any. */
type PlainHandler = ReturnType<typeof apiRoute<unknown>>;

/** 405: `details` names the endpoint's own methods; `Allow` every method the path answers. */
const notAllowed = (req: Request, methods: string[], allow: string) =>
  new HttpError(
    405,
    'Method not allowed',
    `${new URL(req.url).pathname} accepts ${methods.join(', ')}.`,
    { Allow: allow },
  );

/**
 * Handlers for the methods a /v1 path does not have: like any endpoint they check the key and
 * count against the rate limit first, then answer 405 with the spec's JSON body (Next.js would
 * answer an empty 405). A public path (`{ public: true }`, the OpenAPI document) has no key to
 * check and answers 405 at once. OPTIONS needs no key either: it answers 200 with the methods
 * in `Allow` and a JSON body (Next.js answered an empty 204, which the SDKs take for an error).
 * Usage in a route file:
 * `export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');`
 */
export function otherMethods(
  ...allowed: (Method | { public: true })[]
): Record<Method | 'OPTIONS', PlainHandler> {
  const methods = allowed.filter((m): m is Method => typeof m === 'string');
  // Next.js answers HEAD wherever there is a GET.
  const allowList = [...methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'];
  const allow = allowList.join(', ');
  const unkeyed = publicRoute((req) => {
    throw notAllowed(req, methods, allow);
  });
  const refuse: PlainHandler =
    methods.length < allowed.length
      ? (req) => Promise.resolve(unkeyed(req))
      : apiRoute<unknown>(({ req }) => {
          throw notAllowed(req, methods, allow);
        });
  const options = publicRoute(() => ({ body: { allow: allowList }, headers: { Allow: allow } }));
  const answerOptions: PlainHandler = (req) => Promise.resolve(options(req));
  return {
    ...(Object.fromEntries(METHODS.map((m) => [m, refuse])) as Record<Method, PlainHandler>),
    OPTIONS: answerOptions,
  };
}

/**
 * Every method of a path under /v1 that is not an endpoint: after the key check, the spec's 404
 * body.
 */
export const noEndpoint: PlainHandler = apiRoute<unknown>(({ req }) => {
  throw new HttpError(
    404,
    'Not found',
    `There is no API endpoint ${req.method} ${new URL(req.url).pathname}.`,
  );
});
