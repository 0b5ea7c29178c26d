import type { Job } from '../../db/generated/client';
import { enqueue, type Tx } from '../../queue';
import { payloadColumn, type WebhookEvent } from './columns';
import { eventPayload, type Completion } from './events';

export const deliveryQueueKey = (deliveryId: string) => `webhook:${deliveryId}`;

/**
 * Records the first attempt of an event as a pending WebhookDelivery and enqueues its delivery
 * in the same transaction. A no-op for jobs without a webhook URL. Never sends anything itself:
 * requests are never blocked by a receiver.
 */
export async function scheduleWebhook(
  tx: Tx,
  job: Job,
  event: WebhookEvent,
  completion?: Completion,
): Promise<void> {
  if (!job.webhookUrl) return;
  const now = new Date();
  const delivery = await tx.webhookDelivery.create({
    data: {
      jobId: job.id,
      userId: job.userId,
      eventType: event,
      webhookUrl: job.webhookUrl,
      attemptNumber: 1,
      deliveryStatus: 'pending',
      payloadJson: payloadColumn.write(eventPayload(job, event, { completion, at: now })),
      scheduledAt: now,
    },
  });
  await enqueue(
    tx,
    'deliver-webhook',
    { deliveryId: delivery.id },
    {
      singletonKey: deliveryQueueKey(delivery.id),
      runAt: now,
    },
  );
}
