import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys';
import { getBalance } from '../billing/ledger';
import { db } from '../db/client';
import { ServiceError } from './errors';

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** The full key: returned this once, never stored. */
  key: string;
  createdAt: Date;
}

/** Per the spec, an account needs credits (granted or purchased) before it can hold a key. */
export async function createApiKey(userId: string, opts: { name?: string } = {}): Promise<CreatedApiKey> {
  const { total } = await getBalance(userId);
  if (total <= 0) throw new ServiceError('forbidden', 'Buy credits before creating an API key');
  const key = generateApiKey();
  const row = await db().apiKey.create({
    data: { userId, name: (opts.name ?? '').trim().slice(0, 100), prefix: displayPrefix(key), hash: hashApiKey(key) },
  });
  return { id: row.id, name: row.name, prefix: row.prefix, key, createdAt: row.createdAt };
}
