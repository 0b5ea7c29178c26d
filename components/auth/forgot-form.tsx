'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import type { ForgotState } from '@/app/(auth)/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { EmailField } from '@/components/auth/email-field';

export function ForgotForm({
  action,
}: {
  action: (prev: ForgotState, form: FormData) => Promise<ForgotState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  if (state.sent) {
    return (
      <Alert tone="success">
        If an account exists for <strong>{state.email}</strong>, an e-mail with a reset link is on
        its way. The link works once, for one hour.
      </Alert>
    );
  }
  if (state.noMail) {
    return (
      <div className="space-y-4" role="status">
        <Alert tone="info">
          <p>
            This server does not send e-mail. Ask its administrator for a reset link: they can make
            one on the Admin page, or with
          </p>
          <pre className="mt-2 rounded bg-white/70 p-2 text-xs break-all whitespace-pre-wrap">
            npx keyout users reset-link --email {state.email}
          </pre>
        </Alert>
        <Link href="/signin" className="text-sm font-medium text-indigo-700 hover:text-indigo-500">
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      <EmailField defaultValue={state.email} autoFocus />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Sending…' : 'Send me a reset link'}
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Link className="font-medium text-indigo-700 hover:text-indigo-500" href="/signin">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
