import type { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/components/format';
import type { WebhookDelivery } from '@/lib/schemas/webhooks';

type Delivery = z.infer<typeof WebhookDelivery>;

export function WebhookHistory({ deliveries }: { deliveries: Delivery[] }) {
  return (
    <ol className="divide-y divide-slate-100">
      {deliveries.map((d, i) => (
        <li key={i} className="py-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <code className="font-mono text-xs font-medium text-slate-900">{d.event_type}</code>
            <Badge
              tone={
                d.delivery_status === 'delivered'
                  ? 'green'
                  : d.delivery_status === 'failed'
                    ? 'red'
                    : 'amber'
              }
            >
              {d.delivery_status}
            </Badge>
            <span className="text-slate-600">attempt {d.attempt_number}</span>
            {d.http_status_code ? (
              <span className="text-slate-600">· HTTP {d.http_status_code}</span>
            ) : null}
            <span className="ml-auto text-xs text-slate-500">
              {formatDate(d.delivered_at ?? d.scheduled_at)}
            </span>
          </div>
          <p className="mt-1 truncate text-xs text-slate-500">{d.webhook_url}</p>
          {d.error_message ? <p className="mt-1 text-xs text-rose-700">{d.error_message}</p> : null}
          <details className="mt-1">
            <summary className="cursor-pointer text-xs text-indigo-600">Payload</summary>
            <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
              {JSON.stringify(d.payload, null, 2)}
            </pre>
          </details>
        </li>
      ))}
    </ol>
  );
}
