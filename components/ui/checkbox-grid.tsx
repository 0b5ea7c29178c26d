import type { ReactNode } from 'react';

export interface CheckboxOption {
  id: string;
  label: string;
  /** A smaller second line under the label. */
  detail?: ReactNode;
}

/**
 * A fieldset of bordered checkboxes in two columns, each valued by its option's id: named, for
 * a form to submit, or controlled through `checked` and `onChange`.
 */
export function CheckboxGrid({
  legend,
  options,
  name,
  checked,
  onChange,
  disabled,
}: {
  legend: string;
  options: readonly CheckboxOption[];
  name?: string;
  checked?: ReadonlySet<string>;
  onChange?: (id: string, on: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o.id}
            className={
              'flex items-start gap-2 rounded-lg border border-slate-200 p-2 ' +
              'text-sm text-slate-800 hover:border-slate-300'
            }
          >
            <input
              type="checkbox"
              name={name}
              value={o.id}
              className="mt-0.5 h-4 w-4 rounded border-slate-300"
              disabled={disabled}
              {...(checked && onChange
                ? { checked: checked.has(o.id), onChange: (e) => onChange(o.id, e.target.checked) }
                : {})}
            />
            {o.detail ? (
              <span>
                {o.label}
                <span className="block text-xs text-slate-500">{o.detail}</span>
              </span>
            ) : (
              o.label
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
