import type { Job } from '../db/generated/client';
import { Background, classicBackground } from '../schemas/background';

export const WEBHOOK_EVENTS = ['job.started', 'job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The background options stored with a job at start, or null (none, or unreadable). */
export function storedBackground(json: string | null): Background | null {
  if (!json) return null;
  try {
    const parsed = Background.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
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
          // The same classic `{type, transparent_format}` shape the status record uses.
          background: classicBackground(storedBackground(job.backgroundJson)),
        },
      };
    case 'job.failed':
      return { event, timestamp, job: { ...base, status: 'failed', message: job.message } };
  }
}
