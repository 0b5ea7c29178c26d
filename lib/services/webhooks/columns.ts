import { z } from 'zod';
import { jsonColumn } from '../../db/json-column';

export const WEBHOOK_EVENTS = ['job.started', 'job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * WebhookDelivery.payloadJson: the event as it is sent (events.ts), signed and posted byte for
 * byte as stored; parsed on every read and written through this codec (lib/db/json-column.ts).
 */
export const payloadColumn = jsonColumn(
  'WebhookDelivery.payloadJson',
  z.looseObject({
    event: z.enum(WEBHOOK_EVENTS),
    timestamp: z.string(),
    job: z.looseObject({ id: z.string(), filename: z.string(), status: z.string() }),
  }),
);
export type EventPayload = ReturnType<typeof payloadColumn.read>;
