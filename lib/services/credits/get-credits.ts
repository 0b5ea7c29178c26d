import { getBalance } from '../../billing/ledger';
import type { Ports } from '../ports';

export interface CreditBalance {
  user_id: string;
  total_credits: number;
  remaining_credits: number;
  used_credits: number;
}

export async function getCredits(ports: Ports, userId: string): Promise<CreditBalance> {
  const b = await getBalance(userId, ports.db);
  return {
    user_id: userId,
    total_credits: b.total,
    remaining_credits: b.remaining,
    used_credits: b.used,
  };
}
