'use server';

import { revalidatePath } from 'next/cache';
import { requireAdmin } from '@/lib/auth/current-user';
import { textField } from '@/lib/auth/form-data';
import { ServiceError } from '@/lib/errors';
import { issueResetLink } from '@/lib/services/accounts/password-reset';
import { defaultPorts } from '@/lib/services/ports';
import { grantCredits } from '@/lib/services/credits/grant-credits';

export type GrantState = { error?: string; ok?: string };

export async function grantCreditsAction(_prev: GrantState, form: FormData): Promise<GrantState> {
  const admin = await requireAdmin();
  const amount = Number(textField(form, 'amount'));
  if (!Number.isInteger(amount) || amount <= 0 || amount > 1_000_000) {
    return { error: 'Enter a whole number of credits between 1 and 1,000,000.' };
  }
  const note = textField(form, 'note').trim().slice(0, 200) || `Granted by ${admin.email}`;
  try {
    await grantCredits(defaultPorts, textField(form, 'userId'), amount, { kind: 'grant', note });
  } catch (err) {
    if (err instanceof ServiceError) return { error: err.message };
    throw err;
  }
  revalidatePath('/admin');
  return { ok: `Granted ${amount} credits.` };
}

/** A one-time password-reset link for an account, for the administrator to pass on. */
export async function resetLinkAction(
  email: string,
): Promise<{ link?: string; expiresAt?: string; error?: string }> {
  await requireAdmin();
  const issued = await issueResetLink(defaultPorts, email);
  if (!issued) return { error: 'That account no longer exists.' };
  return { link: issued.link, expiresAt: issued.expiresAt.toISOString() };
}
