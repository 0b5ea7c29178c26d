import { db } from '../../db/client';
import { ServiceError } from '../../errors';

/** Revokes one of the account's keys; revoking twice is harmless. */
export async function revokeApiKey(userId: string, keyId: string): Promise<void> {
  const key = await db().apiKey.findFirst({
    where: { id: keyId, userId },
    select: { revokedAt: true },
  });
  if (!key) throw new ServiceError('not_found', 'API key not found');
  if (!key.revokedAt)
    await db().apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
}
