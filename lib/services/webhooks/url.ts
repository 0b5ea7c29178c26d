import { env } from '../../env';
import { assertFetchableUrl, policyFromEnv, type NetPolicy } from '../../net/safe-fetch';

/** HTTPS is required in production, unless private URLs are allowed (LAN self-hosting, tests). */
function httpsRequired(): boolean {
  return env().NODE_ENV === 'production';
}

/** The address rules webhook deliveries are sent under. */
export function webhookPolicy(): NetPolicy {
  return policyFromEnv({ requireHttps: httpsRequired() });
}

/**
 * Validates a webhook URL when a job is started (throws UnsafeUrlError with a user-facing
 * message). Deliveries re-check the address at connect time, so a later DNS change is caught.
 */
export async function assertWebhookUrl(url: string): Promise<void> {
  await assertFetchableUrl(url, { requireHttps: httpsRequired() });
}
