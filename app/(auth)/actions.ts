'use server';

import { redirect } from 'next/navigation';
import { signOut } from '@/lib/auth/next-auth';
import { textField } from '@/lib/auth/form-data';
import { startSession } from '@/lib/auth/password-session';
import { authenticateUser } from '@/lib/services/accounts/authenticate-user';
import { requestResetByEmail, resetPassword } from '@/lib/services/accounts/password-reset';
import { signUp } from '@/lib/services/accounts/sign-up';
import { defaultPorts } from '@/lib/services/ports';

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
  const userId = await authenticateUser(defaultPorts, email, password);
  if (!userId) return { error: 'That email and password do not match an account.', email };
  await startSession(userId);
  redirect(safeNext(form.get('next')));
}

export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = textField(form, 'email');
  const result = await signUp(defaultPorts, {
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

export type ForgotState = { sent?: boolean; noMail?: boolean; error?: string; email?: string };

export async function forgotPasswordAction(
  _prev: ForgotState,
  form: FormData,
): Promise<ForgotState> {
  const email = textField(form, 'email').trim();
  if (!email) return { error: 'Enter the e-mail address of your account.' };
  try {
    const { emailed } = await requestResetByEmail(defaultPorts, email);
    return emailed ? { sent: true, email } : { noMail: true, email };
  } catch (err) {
    console.error('[auth] reset e-mail failed', err);
    return {
      error:
        'The e-mail could not be sent. Try again in a few minutes, or ' +
        'ask your administrator for a reset link.',
      email,
    };
  }
}

export type ResetState = { error?: string };

export async function resetPasswordAction(_prev: ResetState, form: FormData): Promise<ResetState> {
  const password = textField(form, 'password');
  if (password !== textField(form, 'confirm'))
    return { error: 'The two passwords are not the same.' };
  const result = await resetPassword(defaultPorts, textField(form, 'token'), password);
  if (!result.ok) return { error: result.error };
  await startSession(result.userId);
  redirect('/jobs?password=reset');
}
