import type { Job } from '../db/generated/client';
import { classicBackground } from '../services/outputs/recipes';
import { exportIdOf, startedRequest } from '../services/jobs/started-request';

export const WEBHOOK_EVENTS = ['job.started', 'job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The spec's event payloads. `status` is the status the event announces (the row may still read
 * "processing" while job.completed is being delivered: the job turns completed only afterwards).
 */
export function eventPayload(
  job: Job,
  event: WebhookEvent,
  extra: { primaryOutputId?: string | null; at?: Date } = {},
): Record<string, unknown> {
  const timestamp = (extra.at ?? new Date()).toISOString();
  const base = { id: job.id, filename: job.filename };
  switch (event) {
    case 'job.started':
      return { event, timestamp, job: { ...base, status: 'processing', created_at: job.createdAt.toISOString() } };
    case 'job.completed': {
      const request = startedRequest(job);
      return {
        event,
        timestamp,
        job: {
          ...base,
          export_id: exportIdOf(request, extra.primaryOutputId),
          status: 'completed',
          length_seconds: job.lengthSeconds,
          output_format: job.outputFormat,
          // The same classic `{type, transparent_format}` shape the status record uses.
          background: classicBackground(request.background),
        },
      };
    }
    case 'job.failed':
      return { event, timestamp, job: { ...base, status: 'failed', message: job.message } };
  }
}
