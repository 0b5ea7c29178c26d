import { Badge, type BadgeTone } from '@/components/ui/badge';

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  created: { label: 'Waiting for upload', tone: 'slate' },
  uploaded: { label: 'Uploaded', tone: 'blue' },
  processing: { label: 'Processing', tone: 'amber' },
  completed: { label: 'Completed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

export function JobStatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, tone: 'slate' as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
