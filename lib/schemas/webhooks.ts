import { z } from './zod';

export const DeliveriesQuery = z.object({
  video_id: z.string({ error: 'video_id is required' }).min(1, { error: 'video_id is required' }),
});

export const WebhookDelivery = z
  .object({
    event_type: z.enum(['job.started', 'job.completed', 'job.failed']),
    webhook_url: z.string(),
    attempt_number: z.number().int(),
    delivery_status: z.string(),
    http_status_code: z.number().int().nullable(),
    error_message: z.string().nullable(),
    scheduled_at: z.iso.datetime(),
    delivered_at: z.iso.datetime().nullable(),
    payload: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
  })
  .openapi('WebhookDelivery');

export const DeliveryHistory = z
  .object({
    video_id: z.string(),
    total_deliveries: z.number().int(),
    deliveries: z.array(WebhookDelivery),
  })
  .openapi('WebhookDeliveryHistory');
