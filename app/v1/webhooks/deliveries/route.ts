import { queryOf } from '@/lib/http/body';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { DeliveriesQuery, DeliveryHistory } from '@/lib/schemas/webhooks';
import { listWebhookDeliveries } from '@/lib/services/webhooks/list-webhook-deliveries';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute(async ({ req, userId }) => {
  const { video_id } = DeliveriesQuery.parse(queryOf(req));
  return {
    body: DeliveryHistory.parse(await listWebhookDeliveries(defaultPorts, userId, video_id)),
  };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
