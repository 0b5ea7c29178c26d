import { env } from '../env';
import { stateOf, type WindowState } from './rate-limit';
import { API_VERSION } from './version';

/**
 * The headers every answer carries (spec, "Versioning" and "Limits"): the API version and the
 * key's rate window. An answer to a request without a key (a 401, the OpenAPI document, a signed
 * file, OPTIONS) shows a fresh window, as no key's allowance was used.
 */
export function apiHeaders(
  window: WindowState = stateOf(0, env().RATE_LIMIT_PER_MINUTE),
): Record<string, string> {
  return {
    'X-API-Version': API_VERSION,
    'X-RateLimit-Limit': String(window.limit),
    'X-RateLimit-Remaining': String(window.remaining),
    'X-RateLimit-Reset': String(window.resetAt),
  };
}
