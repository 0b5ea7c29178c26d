'use client';

import { useState, useTransition } from 'react';
import { retryJobAction } from '@/app/(dashboard)/jobs/actions';
import { Button } from '@/components/ui/button';

/** "Try again" on a failed job: a new job from the same upload, opened ready to start. */
export function RetryJob({ jobId }: { jobId: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const r = await retryJobAction(jobId).catch(() => ({
              error: 'The server could not be reached. Try again.',
            }));
            if (r?.error) setError(r.error);
          })
        }
        disabled={pending}
      >
        {pending ? 'Preparing…' : 'Try again'}
      </Button>
      <span className="text-sm text-slate-700">
        A new job from the same video; you choose the options again before anything is charged.
      </span>
      {error ? (
        <p role="alert" className="w-full text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
