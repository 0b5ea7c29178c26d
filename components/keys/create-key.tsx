'use client';

import { useActionState } from 'react';
import type { CreateKeyState } from '@/app/(dashboard)/keys/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, TextInput } from '@/components/ui/field';

export function CreateKey({
  action,
  disabled,
}: {
  action: (prev: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
  disabled: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div className="space-y-4">
      <form action={formAction} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field
            id="key-name"
            label="Key name"
            hint="So you can tell your keys apart, e.g. “production” or “n8n”."
          >
            <TextInput
              id="key-name"
              name="name"
              maxLength={100}
              placeholder="production"
              disabled={disabled}
            />
          </Field>
        </div>
        <Button type="submit" disabled={disabled || pending} className="sm:mb-6">
          {pending ? 'Creating…' : 'Create key'}
        </Button>
      </form>
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      {state.key ? (
        <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-4" role="status">
          <p className="text-sm font-medium text-emerald-900">
            Your new API key — copy it now. For your security it will not be shown again.
          </p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="new-api-key"
              className={
                'block min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono ' +
                'text-sm break-all text-slate-900 ring-1 ring-emerald-200'
              }
            >
              {state.key}
            </code>
            <CopyButton text={state.key} label="Copy key" />
          </div>
        </div>
      ) : null}
    </div>
  );
}
