import { z } from './zod';

export const CreditBalance = z
  .object({
    user_id: z.string(),
    total_credits: z.number().int(),
    remaining_credits: z.number().int(),
    used_credits: z.number().int(),
  })
  .openapi('CreditBalance');
