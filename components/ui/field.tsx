import {
  cloneElement,
  isValidElement,
  type ComponentProps,
  type ReactElement,
  type ReactNode,
} from 'react';

export const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 ' +
  'py-2 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-500 focus:border-indigo-600 ' +
  'focus:outline-none focus:ring-2 focus:ring-indigo-600 ' +
  'disabled:bg-slate-100 aria-[invalid=true]:border-rose-600 ' +
  'aria-[invalid=true]:ring-rose-600/30';

/**
 * A labelled field. With `error`, the message is shown right under the field, and the field
 * (when it is the direct child and carries `id`) is marked invalid and described by it.
 */
export function Field({
  label,
  hint,
  error,
  id,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  id: string;
  children: ReactNode;
}) {
  const errorId = `${id}-error`;
  const control =
    error && isValidElement(children) && (children.props as { id?: string }).id === id
      ? cloneElement(children as ReactElement<Record<string, unknown>>, {
          'aria-invalid': true,
          'aria-describedby': errorId,
        })
      : children;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {control}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
      {hint ? <p className="mt-1.5 text-xs text-slate-600">{hint}</p> : null}
    </div>
  );
}

export function TextInput({ className = '', ...props }: ComponentProps<'input'>) {
  return <input className={`${inputClass} ${className}`} {...props} />;
}

/** A select over choices that each have an id and a label. */
export function ChoiceSelect({
  choices,
  ...props
}: Omit<ComponentProps<'select'>, 'children' | 'className'> & {
  choices: readonly { id: string; label: string }[];
}) {
  return (
    <select className={inputClass} {...props}>
      {choices.map((c) => (
        <option key={c.id} value={c.id}>
          {c.label}
        </option>
      ))}
    </select>
  );
}
