import { z } from 'zod';
import { hashPassword } from '../../auth/password';
import { transaction } from '../../db/transaction';
import type { Ports } from '../ports';

export const signUpInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.')),
  password: z
    .string()
    .min(10, 'Use at least 10 characters for your password.')
    .max(200, 'Use at most 200 characters for your password.'),
  name: z.string().trim().max(100).optional(),
});

export type SignUpResult =
  { ok: true; userId: string; isAdmin: boolean } | { ok: false; error: string };

/**
 * Creates an account with an email and password. The first account of a fresh install becomes
 * the administrator (decided inside the same transaction as the insert).
 */
export async function signUp(
  ports: Ports,
  input: z.input<typeof signUpInput>,
): Promise<SignUpResult> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid details.' };
  const { email, password, name } = parsed.data;
  const passwordHash = await hashPassword(password);
  try {
    const user = await transaction(ports.db, async (tx) => {
      // The insert comes first, so the count runs under SQLite's write lock (lib/db/client.ts).
      const created = await tx.user.create({ data: { email, passwordHash, name: name || null } });
      if ((await tx.user.count()) > 1) return created;
      return tx.user.update({ where: { id: created.id }, data: { isAdmin: true } });
    });
    return { ok: true, userId: user.id, isAdmin: user.isAdmin };
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') {
      return { ok: false, error: 'An account with this email already exists. Sign in instead.' };
    }
    throw err;
  }
}
