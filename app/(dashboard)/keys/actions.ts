'use server';

import { revalidatePath } from 'next/cache';
import { requireUser } from '@/lib/auth/current-user';
import { textField } from '@/lib/auth/form-data';
import { createApiKey } from '@/lib/services/keys/create-api-key';
import { ServiceError } from '@/lib/errors';
import { defaultPorts } from '@/lib/services/ports';
import { revokeApiKey } from '@/lib/services/keys/revoke-api-key';

export type CreateKeyState = { error?: string; key?: string; prefix?: string };

export async function createKeyAction(
  _prev: CreateKeyState,
  form: FormData,
): Promise<CreateKeyState> {
  const user = await requireUser('/keys');
  try {
    const created = await createApiKey(defaultPorts, user.id, { name: textField(form, 'name') });
    revalidatePath('/keys');
    return { key: created.key, prefix: created.prefix };
  } catch (err) {
    if (err instanceof ServiceError) return { error: err.message };
    throw err;
  }
}

export async function revokeKeyAction(keyId: string): Promise<{ error?: string }> {
  const user = await requireUser('/keys');
  try {
    await revokeApiKey(defaultPorts, user.id, keyId);
  } catch (err) {
    if (err instanceof ServiceError) return { error: err.message };
    throw err;
  }
  revalidatePath('/keys');
  return {};
}
