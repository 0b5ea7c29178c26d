'use client';

import { type ReactNode, useId, useRef, useState } from 'react';
import { Button } from './button';

/**
 * A button that asks before doing something destructive, in a native modal <dialog> (focus is
 * trapped and Escape cancels). `onConfirm` may return an error message to show.
 */
export function ConfirmButton({
  trigger,
  title,
  body,
  confirmLabel,
  onConfirm,
  size = 'sm',
}: {
  trigger: string;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<string | void>;
  size?: 'sm' | 'md';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const err = await onConfirm();
      if (err) setError(err);
      else ref.current?.close();
    } catch {
      setError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        variant="secondary"
        size={size}
        onClick={() => ref.current?.showModal()}
        className="text-rose-700"
      >
        {trigger}
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={titleId}
        className={
          'm-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl p-0 ' +
          'shadow-2xl backdrop:bg-slate-900/40'
        }
      >
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <div className="mt-2 text-sm text-slate-600">{body}</div>
          {error ? (
            <p role="alert" className="mt-3 text-sm text-rose-700">
              {error}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()} autoFocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
              {busy ? 'Working…' : confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
