import { Card, CardTitle } from '@/components/ui/card';
import { FOCUS_RING } from '@/components/ui/focus-ring';
import { MODELS } from '../job-options';

/** The model, one radio card each with its rate. */
export function ModelCard({
  step,
  disabled,
  name,
  model,
  onChange,
}: {
  step: number;
  disabled: boolean;
  /** The radio group's name. */
  name: string;
  model: string;
  onChange: (model: string) => void;
}) {
  return (
    <Card>
      <CardTitle>{step}. Model</CardTitle>
      <fieldset disabled={disabled}>
        <legend className="sr-only">Model</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {MODELS.map((m) => (
            <label
              key={m.id}
              className={`flex cursor-pointer gap-3 rounded-lg border p-3 ${FOCUS_RING} ${
                model === m.id
                  ? 'border-indigo-500 bg-indigo-50/50'
                  : 'border-slate-200 hover:border-slate-300'
              }`}
            >
              <input
                type="radio"
                name={name}
                value={m.id}
                checked={model === m.id}
                onChange={() => onChange(m.id)}
                className="mt-1 accent-indigo-600"
              />
              <span>
                <span className="block text-sm font-medium text-slate-900">
                  {m.name} <span className="font-normal text-slate-600">· {m.rate} credit/s</span>
                </span>
                <span className="block text-xs text-slate-600">{m.blurb}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
