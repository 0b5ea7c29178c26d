'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { requireUser } from '@/lib/auth/current-user';
import { textField } from '@/lib/auth/form-data';
import { startCheckout } from '@/lib/services/credits/checkout';
import { ServiceError } from '@/lib/errors';
import { defaultPorts } from '@/lib/services/ports';

export type BuyState = { error?: string; bought?: number };

async function requestOrigin(): Promise<string> {
  const h = await headers();
  const proto = h.get('x-forwarded-proto') ?? 'http';
  return `${proto}://${h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost'}`;
}

export async function buyPackAction(_prev: BuyState, form: FormData): Promise<BuyState> {
  const user = await requireUser('/credits');
  let result: Awaited<ReturnType<typeof startCheckout>>;
  try {
    result = await startCheckout(
      defaultPorts,
      user.id,
      textField(form, 'pack'),
      await requestOrigin(),
    );
  } catch (err) {
    if (err instanceof ServiceError) return { error: err.message };
    throw err;
  }
  if (result.mode === 'stripe') redirect(result.url);
  revalidatePath('/credits');
  return { bought: result.credits };
}
