import { useEffect, useState } from 'react';
import { quoteAction } from '@/app/(dashboard)/jobs/actions';
import type { JobQuote } from '@/lib/services/credits/quote-job';

/**
 * The exact cost of starting these jobs with this model (and blur or not), fetched again on retry.
 */
export function useJobQuote(jobIds: string[], model: string, blur: boolean) {
  const [quoted, setQuoted] = useState<{ key: string; quote: JobQuote } | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [quoteTry, setQuoteTry] = useState(0);

  const jobKey = jobIds.join(',');
  // A quote counts only for the jobs and options it was made for: nothing stale is shown or
  // started.
  const quoteKey = `${jobKey}|${model}|${blur}`;
  const quote = quoted?.key === quoteKey ? quoted.quote : null;

  useEffect(() => {
    if (!jobKey) return;
    let live = true;
    void quoteAction(jobKey.split(','), model, blur).then(
      (r) => {
        if (!live) return;
        if (r.ok) {
          setQuoted({ key: `${jobKey}|${model}|${blur}`, quote: r.quote });
          setQuoteError(null);
        } else setQuoteError(r.error);
      },
      () => live && setQuoteError('The price could not be fetched.'),
    );
    return () => {
      live = false;
    };
  }, [jobKey, model, blur, quoteTry]);

  return { quote, quoteError, retry: () => setQuoteTry((n) => n + 1) };
}
