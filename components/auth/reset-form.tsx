'use client';

import { useActionState } from 'react';
import type { ResetState } from '@/app/(auth)/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { Field, TextInput } from '@/components/ui/field';

export function ResetForm({
  token,
  action,
}: {
  token: string;
  action: (prev: ResetState, form: FormData) => Promise<ResetState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <Field id="password" label="New password" hint="At least 10 characters.">
        <TextInput
          id="password"
          name="password"
          type="password"
          required
          minLength={10}
          autoComplete="new-password"
          autoFocus
        />
      </Field>
      <Field id="confirm" label="The same password again">
        <TextInput
          id="confirm"
          name="confirm"
          type="password"
          required
          minLength={10}
          autoComplete="new-password"
        />
      </Field>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Saving…' : 'Set the new password and sign in'}
      </Button>
    </form>
  );
}
