import type { ReactNode } from 'react';
import { AutoRefresh } from '@/components/jobs/auto-refresh';
import { Card, CardTitle } from '@/components/ui/card';
import type { ExportRecord } from '@/lib/schemas/exports';

/**
 * The shell of a panel of a job's outputs (exports, stickers): its title and what it offers,
 * polling while any output is unfinished, then the panel's list and form.
 */
export function OutputsPanel({ title, description, outputs, children }: { title: string; description: string; outputs: ExportRecord[]; children: ReactNode }) {
  return (
    <Card>
      <CardTitle description={description}>{title}</CardTitle>
      <AutoRefresh active={outputs.some((e) => e.status === 'queued')} />
      {children}
    </Card>
  );
}
