import type { ReactNode } from 'react';
import { Alert } from './card';

/**
 * What a form's server action last answered ({ ok, … } or { ok: false, error }): the error as an
 * alert, or the line `success` makes of the answer. `className` places both in the form's layout.
 */
export function ActionOutcome<T extends { ok: true }>({
  result,
  success,
  className,
}: {
  result: T | { ok: false; error: string } | null;
  success: (answer: T) => ReactNode;
  className: string;
}) {
  if (!result) return null;
  if (!result.ok) {
    return (
      <div className={className}>
        <Alert tone="error">{result.error}</Alert>
      </div>
    );
  }
  const line = success(result);
  return line ? (
    <p className={`text-sm text-emerald-700 ${className}`} role="status">
      {line}
    </p>
  ) : null;
}
