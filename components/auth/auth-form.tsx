'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import type { AuthFormState } from '@/app/(auth)/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { EmailField } from '@/components/auth/email-field';
import { Field, TextInput } from '@/components/ui/field';

type Props = {
  mode: 'signin' | 'signup';
  action: (prev: AuthFormState, form: FormData) => Promise<AuthFormState>;
  next?: string;
};

export function AuthForm({ mode, action, next }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  const signup = mode === 'signup';
  const query = next ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <form action={formAction} className="space-y-4" noValidate={false}>
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {signup ? (
        <Field id="name" label="Name (optional)">
          <TextInput id="name" name="name" autoComplete="name" maxLength={100} autoFocus />
        </Field>
      ) : null}
      <EmailField defaultValue={state.email} autoFocus={!signup} />
      <Field id="password" label="Password" hint={signup ? 'At least 10 characters.' : undefined}>
        <TextInput
          id="password"
          name="password"
          type="password"
          required
          minLength={signup ? 10 : undefined}
          autoComplete={signup ? 'new-password' : 'current-password'}
        />
      </Field>
      {!signup ? (
        <p className="-mt-2 text-right text-sm">
          <Link
            className="font-medium text-indigo-700 hover:text-indigo-500"
            href="/forgot-password"
          >
            Forgot your password?
          </Link>
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending
          ? signup
            ? 'Creating account…'
            : 'Signing in…'
          : signup
            ? 'Create account'
            : 'Sign in'}
      </Button>
      <p className="text-center text-sm text-slate-600">
        {signup ? 'Already have an account? ' : 'New to Keyout? '}
        <Link
          className="font-medium text-indigo-700 underline hover:text-indigo-500"
          href={`${signup ? '/signin' : '/signup'}${query}`}
        >
          {signup ? 'Sign in' : 'Create an account'}
        </Link>
      </p>
    </form>
  );
}
