/**
 * A failure a caller can act on. Services throw these with a kind, never an HTTP status, so
 * route handlers, server actions and workers can each present them their own way
 * (lib/http maps kinds to statuses). `message` is shown to the user as is.
 */
export type ServiceErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'insufficient_credits'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  /** The server could not do it now (overloaded); the same request may succeed later. */
  | 'busy';

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly details?: string,
    /** For rate_limited: seconds until the window resets; for busy: when to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
