'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';

/** Makes a one-time password-reset link for an account and shows it to copy and pass on. */
export function ResetLink({
  email,
  action,
}: {
  email: string;
  action: (email: string) => Promise<{ link?: string; error?: string }>;
}) {
  const [state, setState] = useState<{ link?: string; error?: string; busy?: boolean }>({});
  if (state.link) {
    return (
      <div className="min-w-0 max-w-full space-y-1 sm:max-w-xs" role="status">
        <p className="text-xs text-slate-700">One-time link for {email}, valid for an hour:</p>
        <div className="flex items-center gap-2">
          <code
            className={
              'block min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 font-mono text-xs'
            }
            data-testid="reset-link"
          >
            {state.link}
          </code>
          <CopyButton text={state.link} label="Copy" srLabel={`reset link for ${email}`} />
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        disabled={state.busy}
        onClick={() => {
          setState({ busy: true });
          action(email).then(setState, () =>
            setState({ error: 'The link could not be made. Try again.' }),
          );
        }}
      >
        Password reset link<span className="sr-only"> for {email}</span>
      </Button>
      {state.error ? <span className="text-xs text-rose-700">{state.error}</span> : null}
    </div>
  );
}
