import type { ReactNode } from 'react';
import { AutoRefresh } from '@/components/jobs/auto-refresh';
import { ActionOutcome } from '@/components/ui/action-outcome';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import type { ExportRecord } from '@/lib/schemas/exports';

/**
 * The shell of a panel of a job's outputs (exports, stickers): its title and what it offers,
 * polling while any output is unfinished, then the panel's list and form.
 */
export function OutputsPanel({
  title,
  description,
  outputs,
  children,
}: {
  title: string;
  description: string;
  outputs: ExportRecord[];
  children: ReactNode;
}) {
  return (
    <Card>
      <CardTitle description={description}>{title}</CardTitle>
      <AutoRefresh active={outputs.some((e) => e.status === 'queued')} />
      {children}
    </Card>
  );
}

/**
 * A panel form's submit button and what its action answered: how many outputs it added, in
 * `added`'s words. `className` places the button and the answer in the form's layout.
 */
export function AddOutputs({
  label,
  pending,
  result,
  className,
  added,
}: {
  label: string;
  pending: boolean;
  result: { ok: true; added: number } | { ok: false; error: string } | null;
  className: { button: string; outcome: string };
  added: (count: number) => string;
}) {
  return (
    <>
      <div className={className.button}>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding…' : label}
        </Button>
      </div>
      <ActionOutcome
        result={result}
        className={className.outcome}
        success={(r) => added(r.added)}
      />
    </>
  );
}
