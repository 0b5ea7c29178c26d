import { z } from 'zod';
import { ServiceError } from '@/lib/errors';

/**
 * A job-page action's refusal, in words: the service's message with its details, or what the
 * request got wrong. Anything else is a bug, thrown on.
 */
export function actionFailure(err: unknown): { ok: false; error: string } {
  if (err instanceof ServiceError)
    return { ok: false, error: err.details ? `${err.message}. ${err.details}` : err.message };
  if (err instanceof z.ZodError)
    return { ok: false, error: err.issues.map((i) => i.message).join('; ') };
  throw err;
}
