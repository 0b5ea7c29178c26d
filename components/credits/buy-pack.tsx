'use client';

import { useActionState } from 'react';
import type { BuyState } from '@/app/(dashboard)/credits/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { formatCredits, formatPrice } from '@/components/format';

type Pack = { id: string; credits: number; priceCents: number; blurb: string };

export function BuyPacks({
  packs,
  mode,
  action,
}: {
  packs: readonly Pack[];
  mode: 'stripe' | 'test';
  action: (prev: BuyState, form: FormData) => Promise<BuyState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div className="space-y-4">
      {state.error ? <Alert tone="error">{state.error}</Alert> : null}
      {state.bought ? (
        <Alert tone="success">
          Thank you! {formatCredits(state.bought)} were added to your balance.
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-3">
        {packs.map((p, i) => (
          <form
            key={p.id}
            action={formAction}
            className={
              'flex flex-col rounded-xl border p-5 ' +
              `${i === 1 ? 'border-indigo-300 ring-1 ring-indigo-200' : 'border-slate-200'}`
            }
          >
            <input type="hidden" name="pack" value={p.id} />
            <p className="text-sm font-medium capitalize text-slate-600">{p.id}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
              {formatCredits(p.credits)}
            </p>
            <p className="mt-1 text-sm text-slate-600">{p.blurb}</p>
            <div className="mt-4 flex items-center justify-between gap-3 pt-2">
              <span className="text-lg font-semibold text-slate-900">
                {formatPrice(p.priceCents)}
              </span>
              <Button
                type="submit"
                size="sm"
                disabled={pending}
                aria-label={`Buy ${p.credits} credits for ${formatPrice(p.priceCents)}`}
              >
                {pending ? 'Processing…' : 'Buy'}
              </Button>
            </div>
          </form>
        ))}
      </div>
      <p className="text-xs text-slate-500">
        {mode === 'test'
          ? 'Test-mode checkout: this server has no payment provider ' +
            'configured, so purchases are recorded immediately and nothing ' +
            'is charged.'
          : 'You will be taken to Stripe Checkout to pay securely; credits ' +
            'are added as soon as you return.'}
      </p>
    </div>
  );
}
