import { env } from '../env';

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * One definition of the session cookie, shared by the Auth.js config (which reads it) and our
 * password sign-in (which writes it). Secure and __Secure- prefixed when served over HTTPS.
 */
export function sessionCookie() {
  const secure = env().PUBLIC_URL.startsWith('https://');
  return {
    name: `${secure ? '__Secure-' : ''}keyout.session-token`,
    options: { httpOnly: true, sameSite: 'lax' as const, path: '/', secure },
  };
}
