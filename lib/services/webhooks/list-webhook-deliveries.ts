import type { z } from 'zod';
import type { DeliveryHistory } from '../../schemas/webhooks';
import { jobNotFound } from '../../errors';
import { payloadColumn } from './columns';
import type { Ports } from '../ports';

type History = z.infer<typeof DeliveryHistory>;
type Delivery = History['deliveries'][number];

/** Every delivery attempt recorded for one of the caller's jobs, oldest first. */
export async function listWebhookDeliveries(
  ports: Ports,
  userId: string,
  jobId: string,
): Promise<History> {
  const job = await ports.db.job.findFirst({ where: { id: jobId, userId }, select: { id: true } });
  if (!job) throw jobNotFound();
  const rows = await ports.db.webhookDelivery.findMany({
    where: { jobId, userId },
    orderBy: [{ createdAt: 'asc' }, { attemptNumber: 'asc' }],
  });
  return {
    video_id: jobId,
    total_deliveries: rows.length,
    deliveries: rows.map((d): Delivery => ({
      event_type: d.eventType as Delivery['event_type'],
      webhook_url: d.webhookUrl,
      attempt_number: d.attemptNumber,
      delivery_status: d.deliveryStatus,
      http_status_code: d.httpStatusCode,
      error_message: d.errorMessage,
      scheduled_at: d.scheduledAt.toISOString(),
      delivered_at: d.deliveredAt?.toISOString() ?? null,
      payload: payloadColumn.read(d.payloadJson),
      created_at: d.createdAt.toISOString(),
    })),
  };
}
