import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { formatCredits, formatPrice, formatSeconds } from '@/components/format';
import type { JobQuote } from '@/lib/services/credits/quote-job';
import type { StartJobs } from './use-start-jobs';

/** The cost and its parts, what stands in the way of starting, and Start. */
export function SummaryCard({
  targetCount,
  modelName,
  quote,
  quoteError,
  retryQuote,
  jobs,
  disabled,
}: {
  targetCount: number;
  modelName: string | undefined;
  quote: JobQuote | null;
  quoteError: string | null;
  retryQuote: () => void;
  jobs: StartJobs;
  disabled: boolean;
}) {
  const { startError, starting, started } = jobs;
  const affordable = quote ? quote.balance >= quote.credits : false;
  return (
    <Card>
      <CardTitle>Summary</CardTitle>
      <CostList targetCount={targetCount} modelName={modelName} quote={quote} />
      <div className="mt-4 space-y-3">
        {!targetCount ? (
          <p className="text-sm text-slate-600">Upload a video to see the exact cost.</p>
        ) : null}
        {quoteError ? (
          <Alert tone="error">
            {quoteError}{' '}
            <button type="button" className="font-medium underline" onClick={retryQuote}>
              Try again
            </button>
          </Alert>
        ) : null}
        {quote && !affordable ? (
          <Alert tone="warning">
            You need {formatCredits(quote.credits - quote.balance)} more.{' '}
            <Link href="/credits" className="font-medium underline">
              Buy credits
            </Link>
          </Alert>
        ) : null}
        {startError && !startError.field ? <Alert tone="error">{startError.error}</Alert> : null}
        {startError?.field ? (
          <p className="text-sm text-rose-700" role="alert">
            Check the highlighted field: {startError.error}
          </p>
        ) : null}
        <Button
          className="w-full"
          size="lg"
          disabled={disabled || !quote || !affordable || starting}
          onClick={() => void jobs.start()}
        >
          {starting
            ? targetCount > 1
              ? `Starting ${started + 1} of ${targetCount}…`
              : 'Starting…'
            : quote
              ? `Start — ${formatCredits(quote.credits)}`
              : 'Start processing'}
        </Button>
        <p className="text-xs text-slate-600">Failed jobs are refunded automatically.</p>
      </div>
    </Card>
  );
}

/** Length, rates, how the cost adds up, the cost in credits and dollars, and the balance. */
function CostList({
  targetCount,
  modelName,
  quote,
}: {
  targetCount: number;
  modelName: string | undefined;
  quote: JobQuote | null;
}) {
  const seconds = quote ? quote.jobs.reduce((s, j) => s + j.lengthSeconds, 0) : 0;
  const multiplier = quote?.jobs.find((j) => j.fpsMultiplier > 1)?.fpsMultiplier;
  return (
    <dl className="space-y-2 text-sm">
      <div className="flex justify-between gap-4">
        <dt className="text-slate-600">{targetCount > 1 ? `${targetCount} videos` : 'Duration'}</dt>
        <dd className="tabular-nums text-slate-900">{quote ? formatSeconds(seconds) : '—'}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-slate-600">{modelName}</dt>
        <dd className="tabular-nums text-slate-900">
          {quote ? `${quote.modelRate} credit/s` : '—'}
        </dd>
      </div>
      {quote && quote.blurRate ? (
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Blur</dt>
          <dd className="tabular-nums text-slate-900">+{quote.blurRate} credit/s</dd>
        </div>
      ) : null}
      {multiplier ? (
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Frame rate above 30 fps</dt>
          <dd className="tabular-nums text-slate-900">× {Math.round(multiplier * 100) / 100}</dd>
        </div>
      ) : null}
      {quote ? (
        <div>
          <dt className="sr-only">How the cost adds up</dt>
          <dd className="text-xs text-slate-600" data-testid="job-cost-parts">
            {quote.jobs
              .map(
                (j) =>
                  `${quote.modelRate + quote.blurRate} × ` +
                  `${Math.round(j.lengthSeconds * 100) / 100} s` +
                  (j.fpsMultiplier > 1 ? ` × ${Math.round(j.fpsMultiplier * 100) / 100}` : '') +
                  `, rounded up = ${j.credits}`,
              )
              .join('; ')}
          </dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4 border-t border-slate-100 pt-2">
        <dt className="font-medium text-slate-900">Cost</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="job-cost">
          {quote ? formatCredits(quote.credits) : '—'}
        </dd>
      </div>
      {quote ? (
        <div>
          <dt className="sr-only">In dollars</dt>
          <dd className="text-right text-xs text-slate-600">
            {formatPrice(Math.round(quote.credits * quote.creditCents.min))}–
            {formatPrice(Math.round(quote.credits * quote.creditCents.max))} at credit-pack prices (
            <Link href="/credits" className="underline">
              packs
            </Link>
            )
          </dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4">
        <dt className="text-slate-600">Your balance</dt>
        <dd className="tabular-nums text-slate-900">
          {quote ? formatCredits(quote.balance) : '—'}
        </dd>
      </div>
    </dl>
  );
}
