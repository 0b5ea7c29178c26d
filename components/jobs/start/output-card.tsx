import { Card, CardTitle } from '@/components/ui/card';
import { FOCUS_RING } from '@/components/ui/focus-ring';
import type { BackgroundChoice } from '../job-options';
import { OutputFields, UrlField } from './output-fields';
import type { StartJobs } from './use-start-jobs';
import type { StartOptions } from './use-start-options';

const OUTPUT_KINDS = [
  ['transparent', 'Transparent'],
  ['color', 'Colour'],
  ['media', 'Image or video'],
  ['blur', 'Blur'],
] as const;

/** The output: its kind, the settings of that kind, and the optional webhook. */
export function OutputCard({
  step,
  disabled,
  name,
  options,
  jobs,
  webhookOpen,
}: {
  step: number;
  disabled: boolean;
  /** The kind radio group's name. */
  name: string;
  options: StartOptions;
  jobs: StartJobs;
  /** Whether the webhook section starts open (a webhook was given before). */
  webhookOpen: boolean;
}) {
  return (
    <Card>
      <CardTitle>{step}. Output</CardTitle>
      <OutputKindPicker
        disabled={disabled}
        name={name}
        outKind={options.outKind}
        onChange={options.setOutKind}
      />
      <OutputFields disabled={disabled} options={options} jobs={jobs} />
      <details
        className="mt-5 rounded-lg border border-slate-200 p-3"
        open={webhookOpen || jobs.startError?.field === 'webhook'}
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Webhook (optional)
        </summary>
        <div className="mt-3">
          <UrlField
            id="webhook"
            label="Notify this URL when the job completes or fails"
            hint="We POST job.started, job.completed and job.failed as JSON."
            jobs={jobs}
            value={options.webhookUrl}
            onChange={options.setWebhookUrl}
            placeholder="https://example.com/hooks/keyout"
            disabled={disabled}
          />
        </div>
      </details>
    </Card>
  );
}

function OutputKindPicker({
  disabled,
  name,
  outKind,
  onChange,
}: {
  disabled: boolean;
  name: string;
  outKind: BackgroundChoice['kind'];
  onChange: (kind: BackgroundChoice['kind']) => void;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend className="sr-only">Background</legend>
      <div className="flex flex-wrap gap-2">
        {OUTPUT_KINDS.map(([k, label]) => (
          <label
            key={k}
            className={[
              'cursor-pointer rounded-lg border px-3 py-2 text-sm font-medium',
              FOCUS_RING,
              outKind === k
                ? 'border-indigo-500 bg-indigo-50 text-indigo-700'
                : 'border-slate-200 text-slate-700 hover:border-slate-300',
            ].join(' ')}
          >
            <input
              type="radio"
              name={name}
              value={k}
              checked={outKind === k}
              onChange={() => onChange(k)}
              className="sr-only"
            />
            {label}
            {k === 'blur' ? (
              <span className="font-normal text-slate-600"> · +1 credit/s</span>
            ) : null}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
