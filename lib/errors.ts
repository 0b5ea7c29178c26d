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
  | 'rate_limited';

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly details?: string,
    /** For rate_limited: seconds until the window resets. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
