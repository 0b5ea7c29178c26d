import 'server-only';
import { redirect } from 'next/navigation';
import { auth } from './next-auth';

export type CurrentUser = { id: string; email: string; name: string | null; isAdmin: boolean };

/** The signed-in user, or null. */
export async function currentUser(): Promise<CurrentUser | null> {
  const session = await auth();
  return session?.user?.id ? session.user : null;
}

/** The signed-in user; sends visitors to the sign-in page (and back here afterwards). */
export async function requireUser(returnTo = '/jobs'): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return user;
}

export async function requireAdmin(): Promise<CurrentUser> {
  const user = await requireUser('/admin');
  if (!user.isAdmin) redirect('/jobs');
  return user;
}
