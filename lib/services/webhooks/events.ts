import type { z } from 'zod';
import type { Job } from '../../db/generated/client';
import type { ClassicBackgroundSchema } from '../../schemas/jobs';
import type { EventPayload, WebhookEvent } from './columns';

/**
 * What job.completed says beyond the job's row, as the status record says it: the start's export id
 * and classic background.
 */
export interface Completion {
  exportId: string | null;
  background: z.infer<typeof ClassicBackgroundSchema> | null;
}

/**
 * The spec's event payloads. `status` is the status the event announces (the row may still read
 * "processing" while job.completed is being delivered: the job turns completed only afterwards).
 */
export function eventPayload(
  job: Job,
  event: WebhookEvent,
  extra: { completion?: Completion; at?: Date } = {},
): EventPayload {
  const timestamp = (extra.at ?? new Date()).toISOString();
  const base = { id: job.id, filename: job.filename };
  switch (event) {
    case 'job.started':
      return {
        event,
        timestamp,
        job: { ...base, status: 'processing', created_at: job.createdAt.toISOString() },
      };
    case 'job.completed':
      return {
        event,
        timestamp,
        job: {
          ...base,
          export_id: extra.completion?.exportId ?? null,
          status: 'completed',
          length_seconds: job.lengthSeconds,
          output_format: job.outputFormat,
          background: extra.completion?.background ?? null,
        },
      };
    case 'job.failed':
      return { event, timestamp, job: { ...base, status: 'failed', message: job.message } };
  }
}
