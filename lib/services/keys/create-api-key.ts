import { displayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys';
import { hasPurchasedCredits } from '../../billing/ledger';
import { ServiceError } from '../../errors';
import type { Ports } from '../ports';

export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** The full key: returned this once, never stored. */
  key: string;
  createdAt: Date;
}

/**
 * Per the spec, an account must have purchased credits before it can hold a key. The operator's
 * CLI (`keyout keys create`, which grants credits itself) issues keys as the administrator.
 */
export async function createApiKey(
  ports: Ports,
  userId: string,
  opts: { name?: string; issuedByOperator?: boolean } = {},
): Promise<CreatedApiKey> {
  if (!opts.issuedByOperator && !(await hasPurchasedCredits(userId, ports.db))) {
    throw new ServiceError(
      'forbidden',
      'Buy a credit pack first: API keys are available to accounts that have purchased credits.',
    );
  }
  const key = generateApiKey();
  const row = await ports.db.apiKey.create({
    data: {
      userId,
      name: (opts.name ?? '').trim().slice(0, 100),
      prefix: displayPrefix(key),
      hash: hashApiKey(key),
    },
  });
  return { id: row.id, name: row.name, prefix: row.prefix, key, createdAt: row.createdAt };
}
