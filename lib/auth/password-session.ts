import 'server-only';
import { randomBytes } from 'node:crypto';
import { cookies } from 'next/headers';
import { db } from '../db/client';
import { SESSION_MAX_AGE_SECONDS, sessionCookie } from './session-cookie';

/**
 * Starts a database session for a user whose password we verified: writes the Session row that
 * the Auth.js adapter reads back on every request, and sets the session cookie.
 */
export async function startSession(userId: string): Promise<void> {
  const sessionToken = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
  await db().session.create({ data: { sessionToken, userId, expires } });
  const { name, options } = sessionCookie();
  (await cookies()).set(name, sessionToken, { ...options, expires });
}
