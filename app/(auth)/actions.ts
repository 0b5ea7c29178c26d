'use server';

import { redirect } from 'next/navigation';
import { signOut } from '@/lib/auth/next-auth';
import { textField } from '@/lib/auth/form-data';
import { startSession } from '@/lib/auth/password-session';
import { authenticateUser } from '@/lib/services/dashboard/authenticate-user';
import { signUp } from '@/lib/services/dashboard/sign-up';

export type AuthFormState = { error?: string; email?: string };

/** Only same-site paths are accepted as a post-sign-in destination. */
function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === 'string' ? value : '';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/jobs';
}

export async function signInAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = textField(form, 'email');
  const password = textField(form, 'password');
  if (!email || !password) return { error: 'Enter your email and password.', email };
  const userId = await authenticateUser(email, password);
  if (!userId) return { error: 'That email and password do not match an account.', email };
  await startSession(userId);
  redirect(safeNext(form.get('next')));
}

export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = textField(form, 'email');
  const result = await signUp({
    email,
    password: textField(form, 'password'),
    name: textField(form, 'name'),
  });
  if (!result.ok) return { error: result.error, email };
  await startSession(result.userId);
  redirect(safeNext(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: '/' });
}
