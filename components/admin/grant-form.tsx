'use client';

import { useActionState } from 'react';
import type { GrantState } from '@/app/(dashboard)/admin/actions';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';

export function GrantForm({
  userId,
  email,
  action,
}: {
  userId: string;
  email: string;
  action: (prev: GrantState, form: FormData) => Promise<GrantState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <label className="sr-only" htmlFor={`amount-${userId}`}>
        Credits to grant to {email}
      </label>
      <input
        id={`amount-${userId}`}
        name="amount"
        type="number"
        min={1}
        max={1000000}
        step={1}
        required
        placeholder="Credits"
        className={`${inputClass} !w-28`}
      />
      <label className="sr-only" htmlFor={`note-${userId}`}>
        Note for {email}
      </label>
      <input
        id={`note-${userId}`}
        name="note"
        maxLength={200}
        placeholder="Note (optional)"
        className={`${inputClass} !w-44`}
      />
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? 'Granting…' : 'Grant'}
      </Button>
      <span
        aria-live="polite"
        className={`text-xs ${state.error ? 'text-rose-700' : 'text-emerald-700'}`}
      >
        {state.error ?? state.ok ?? ''}
      </span>
    </form>
  );
}
