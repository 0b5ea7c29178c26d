import type { Metadata } from 'next';
import Link from 'next/link';
import { BuyPacks } from '@/components/credits/buy-pack';
import { LedgerTable } from '@/components/credits/ledger-table';
import { Alert, Card, CardTitle, EmptyState, PageHeader } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/current-user';
import { checkoutMode, confirmStripeCheckout, CREDIT_PACKS } from '@/lib/services/credits/checkout';
import { hasPurchasedCredits } from '@/lib/billing/ledger';
import { listLedger } from '@/lib/services/credits/list-ledger';
import { getCredits } from '@/lib/services/credits/get-credits';
import { buyPackAction } from './actions';
import { defaultPorts } from '@/lib/services/ports';

export const metadata: Metadata = { title: 'Credits — Keyout' };

export default async function CreditsPage({
  searchParams,
}: {
  searchParams: Promise<{ checkout?: string }>;
}) {
  const user = await requireUser('/credits');
  const { checkout } = await searchParams;
  const confirmed =
    checkout && checkout !== 'cancelled'
      ? await confirmStripeCheckout(defaultPorts, user.id, checkout)
      : null;
  const [credits, ledger, purchased, mode] = await Promise.all([
    getCredits(defaultPorts, user.id),
    listLedger(defaultPorts, user.id),
    hasPurchasedCredits(user.id),
    checkoutMode(defaultPorts, user.id),
  ]);

  return (
    <>
      <PageHeader
        title="Credits"
        description={
          'Server jobs are paid in credits: per second of video, rounded ' +
          'up. The in-browser Studio is free.'
        }
      />
      <div className="space-y-6">
        {confirmed ? (
          <Alert tone="success">Payment received: {confirmed.credits} credits were added.</Alert>
        ) : null}
        {checkout === 'cancelled' ? (
          <Alert tone="warning">The checkout was cancelled; nothing was charged.</Alert>
        ) : null}

        <div className="grid gap-4 sm:grid-cols-3">
          {[
            { label: 'Available', value: credits.remaining_credits, id: 'balance' },
            { label: 'Bought and granted', value: credits.total_credits, id: 'total' },
            { label: 'Used', value: credits.used_credits, id: 'used' },
          ].map((s) => (
            <Card key={s.id} className="!p-5">
              <p className="text-sm text-slate-600" id={`credits-${s.id}`}>
                {s.label}
              </p>
              <p
                className="mt-1 text-3xl font-semibold tabular-nums text-slate-900"
                aria-labelledby={`credits-${s.id}`}
                data-testid={`credits-${s.id}`}
              >
                {s.value.toLocaleString('en-US')}
              </p>
            </Card>
          ))}
        </div>

        {!purchased ? (
          <Alert tone="info">
            API keys become available after your first purchase. Credits granted by an administrator
            can be spent on jobs in the dashboard, but the API requires an account that has bought
            credits at least once.
          </Alert>
        ) : null}

        <Card>
          <CardTitle description="Credits never expire. Failed jobs are refunded automatically.">
            Buy credits
          </CardTitle>
          {mode === 'unavailable' ? (
            <Alert tone="info">
              Buying credits is not available on this instance. Ask its administrator for credits.
            </Alert>
          ) : (
            <BuyPacks packs={CREDIT_PACKS} mode={mode} action={buyPackAction} />
          )}
        </Card>

        <Card>
          <CardTitle description="Every grant, purchase, job charge and refund on your account.">
            History
          </CardTitle>
          {ledger.length ? (
            <LedgerTable rows={ledger} />
          ) : (
            <EmptyState title="No credit history yet">
              Buy a pack above, then{' '}
              <Link className="text-indigo-700 underline hover:text-indigo-500" href="/jobs/new">
                start a job
              </Link>
              .
            </EmptyState>
          )}
        </Card>
      </div>
    </>
  );
}
