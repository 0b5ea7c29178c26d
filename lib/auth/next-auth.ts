import { PrismaAdapter } from '@auth/prisma-adapter';
import NextAuth from 'next-auth';
import { SESSION_MAX_AGE_SECONDS, sessionCookie } from './session-cookie';
import { db } from '../db/client';
import { ensureSecret } from '../secret';

declare module 'next-auth' {
  interface Session {
    user: { id: string; email: string; name: string | null; isAdmin: boolean };
  }
}

/**
 * Auth.js with DATABASE sessions. Passwords are checked by our own sign-in action
 * (lib/auth/password-session.ts), which writes the Session row and the cookie this config reads:
 * the Credentials provider would force JWT sessions, which cannot be revoked server-side.
 * The config is built lazily so the secret is read (or generated) at request time, not at build.
 */
export const { auth, signOut, handlers } = NextAuth(() => ({
  adapter: PrismaAdapter(db()),
  providers: [],
  secret: ensureSecret(),
  trustHost: true,
  session: { strategy: 'database', maxAge: SESSION_MAX_AGE_SECONDS },
  cookies: { sessionToken: sessionCookie() },
  pages: { signIn: '/signin' },
  callbacks: {
    // The adapter hands over the whole User row; expose only what the UI needs (never the hash).
    session({ session, user }) {
      const u = user as typeof user & { isAdmin?: boolean };
      return {
        ...session,
        user: { id: u.id, email: u.email, name: u.name ?? null, isAdmin: Boolean(u.isAdmin) },
      };
    },
  },
}));
