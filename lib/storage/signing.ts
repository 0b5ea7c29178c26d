import { createHmac, timingSafeEqual } from 'node:crypto';
import { ensureSecret } from '../secret';

/**
 * Signed URLs for local storage: an HMAC-SHA256 over method, path, expiry and the optional
 * download name, so a URL cannot be widened to another file, method or lifetime.
 */
export interface SignedParams {
  method: string;
  path: string;
  expires: number;
  filename?: string | null;
}

export function signature({ method, path, expires, filename }: SignedParams): string {
  return createHmac('sha256', ensureSecret())
    .update(`${method.toUpperCase()}\n${path}\n${expires}\n${filename ?? ''}`)
    .digest('base64url');
}

export type Verdict = 'ok' | 'expired' | 'invalid';

export function verifySignature(
  params: SignedParams,
  sig: string | null,
  now = Date.now(),
): Verdict {
  if (!sig || !Number.isInteger(params.expires)) return 'invalid';
  const expected = Buffer.from(signature(params));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return params.expires * 1000 < now ? 'expired' : 'ok';
}
