import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import { ServiceError, type ServiceErrorKind } from '../errors';
import { isUserMessage } from '../schemas/messages';

/**
 * The spec's error body: `error` is always a string (SDKs crash on objects), `details` optional.
 */
export interface ErrorBody {
  error: string;
  details?: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS: Record<ServiceErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  busy: 503,
};

function fromZod(e: ZodError): HttpError {
  const where = (path: PropertyKey[]) => path.map(String).join('.');
  const first = e.issues[0];
  const details = e.issues
    .map((i) => (i.path.length ? `${where(i.path)}: ${i.message}` : i.message))
    .join('; ');
  if (!first) return new HttpError(400, 'Invalid request');
  if (isUserMessage(first.message)) return new HttpError(400, first.message, details);
  const error = first.path.length
    ? `Invalid ${where(first.path)}: ${first.message}`
    : `Invalid request: ${first.message}`;
  return new HttpError(400, error, details);
}

/** Any thrown value → status, body and extra headers. Unknown errors are logged and hidden. */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  if (e instanceof ServiceError) {
    const headers: Record<string, string> = {};
    if (e.retryAfterSeconds !== undefined) headers['Retry-After'] = String(e.retryAfterSeconds);
    return new HttpError(STATUS[e.kind], e.message, e.details, headers);
  }
  if (e instanceof ZodError) return fromZod(e);
  const ref = randomUUID().slice(0, 8);
  console.error(`[api] unexpected error, reference ${ref}`, e);
  return new HttpError(500, 'Internal server error', `Reference ${ref}: quote it to the operator.`);
}
