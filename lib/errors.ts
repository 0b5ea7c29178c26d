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

/** Text as a sentence for people: a capital first letter and one closing mark. */
export const sentence = (s: string) =>
  (s ? s[0]!.toUpperCase() + s.slice(1) : s).replace(/([^.!?])$/, '$1.');

/** A ServiceError for people: its message, then its details, each a sentence. */
export const inWords = (e: ServiceError) =>
  [e.message, e.details].flatMap((part) => (part ? [sentence(part)] : [])).join(' ');

export const JOB_NOT_FOUND = 'Job not found or does not belong to user';

/** What every use case answers for a job id that is not the caller's (or not there). */
export const jobNotFound = () => new ServiceError('not_found', JOB_NOT_FOUND);
