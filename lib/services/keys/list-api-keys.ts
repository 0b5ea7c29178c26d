import type { Ports } from '../ports';

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The account's keys, newest first; only display prefixes, never secrets. */
export async function listApiKeys(ports: Ports, userId: string): Promise<ApiKeySummary[]> {
  return ports.db.apiKey.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
    },
  });
}
