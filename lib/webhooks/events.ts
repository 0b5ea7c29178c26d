import type { Job } from '../db/generated/client';

export const WEBHOOK_EVENTS = ['job.started', 'job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The classic `{type, transparent_format}` view of the stored background options. */
function backgroundSummary(json: string | null): { type: string | null; transparent_format: string | null } | null {
  if (!json) return null;
  try {
    const bg = JSON.parse(json) as { type?: unknown; transparent_format?: unknown } | null;
    if (!bg || typeof bg !== 'object') return null;
    return {
      type: typeof bg.type === 'string' ? bg.type : null,
      transparent_format: typeof bg.transparent_format === 'string' ? bg.transparent_format : null,
    };
  } catch {
    return null;
  }
}

/**
 * The spec's event payloads. `status` is the status the event announces (the row may still read
 * "processing" while job.completed is being delivered: the job turns completed only afterwards).
 */
export function eventPayload(
  job: Job,
  event: WebhookEvent,
  extra: { exportId?: string | null; at?: Date } = {},
): Record<string, unknown> {
  const timestamp = (extra.at ?? new Date()).toISOString();
  const base = { id: job.id, filename: job.filename };
  switch (event) {
    case 'job.started':
      return { event, timestamp, job: { ...base, status: 'processing', created_at: job.createdAt.toISOString() } };
    case 'job.completed':
      return {
        event,
        timestamp,
        job: {
          ...base,
          export_id: extra.exportId ?? null,
          status: 'completed',
          length_seconds: job.lengthSeconds,
          output_format: job.outputFormat,
          background: backgroundSummary(job.backgroundJson),
        },
      };
    case 'job.failed':
      return { event, timestamp, job: { ...base, status: 'failed', message: job.message } };
  }
}
