'use client';

import { useId } from 'react';
import { DEFAULT_MODEL } from '@/engine/api-models';
import { DEFAULT_FORMAT } from '@/engine/formats';
import { FormWithSummary } from '@/components/ui/form-with-summary';
import { type BackgroundChoice, MODELS } from '../job-options';
import { ModelCard } from './model-card';
import { OutputCard } from './output-card';
import { SummaryCard } from './summary-card';
import { useJobQuote } from './use-job-quote';
import { useStartJobs } from './use-start-jobs';
import { useStartOptions } from './use-start-options';

export interface StartJobTarget {
  jobId: string;
  name: string;
}

/**
 * Model, output, webhook, the exact cost with its parts, and Start, for one or more uploaded
 * jobs (the same options for each). Used by New job and by the job page of an uploaded job,
 * so both offer the same choices and the same quote.
 */
export function StartForm({
  targets,
  initialModel = DEFAULT_MODEL,
  initialChoice = { kind: 'transparent', format: DEFAULT_FORMAT },
  initialWebhook = '',
  step = 2,
  disabled = false,
}: {
  targets: StartJobTarget[];
  initialModel?: string;
  initialChoice?: BackgroundChoice;
  initialWebhook?: string;
  /** Number of the first card ("2. Model" on New job, "1. Model" on the job page). */
  step?: number;
  disabled?: boolean;
}) {
  const options = useStartOptions({ initialModel, initialChoice, initialWebhook });
  const jobIds = targets.map((t) => t.jobId);
  const { quote, quoteError, retry } = useJobQuote(
    jobIds,
    options.model,
    options.outKind === 'blur',
  );
  const jobs = useStartJobs(jobIds, options);
  const ids = { model: useId(), out: useId() };

  return (
    <FormWithSummary
      summary={
        <SummaryCard
          targetCount={targets.length}
          modelName={MODELS.find((m) => m.id === options.model)?.name}
          quote={quote}
          quoteError={quoteError}
          retryQuote={retry}
          jobs={jobs}
          disabled={disabled}
        />
      }
    >
      <ModelCard
        step={step}
        disabled={disabled}
        name={ids.model}
        model={options.model}
        onChange={options.setModel}
      />
      <OutputCard
        step={step + 1}
        disabled={disabled}
        name={ids.out}
        options={options}
        jobs={jobs}
        webhookOpen={Boolean(initialWebhook)}
      />
    </FormWithSummary>
  );
}
