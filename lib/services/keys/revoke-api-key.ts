import { ServiceError } from '../../errors';
import type { Ports } from '../ports';

/** Revokes one of the account's keys; revoking twice is harmless. */
export async function revokeApiKey(ports: Ports, userId: string, keyId: string): Promise<void> {
  const key = await ports.db.apiKey.findFirst({
    where: { id: keyId, userId },
    select: { revokedAt: true },
  });
  if (!key) throw new ServiceError('not_found', 'API key not found');
  if (!key.revokedAt)
    await ports.db.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
}
