import { parseArgs } from 'node:util';
import { z } from 'zod';
import { db } from '../db/client';
import { createApiKey } from '../services/keys/create-api-key';
import { issueResetLink } from '../services/accounts/password-reset';
import { grantCredits } from '../services/credits/grant-credits';
import { defaultPorts } from '../services/ports';

/**
 * `keyout keys create --email <e> --credits <n> [--name <label>]` and
 * `keyout credits grant --email <e> --credits <n>`. The new key is printed alone on the last
 * line so scripts can take it with `tail -n 1`.
 */
const argsSchema = z.object({
  email: z.string().trim().toLowerCase().email('--email must be an e-mail address'),
  credits: z.coerce
    .number()
    .int('--credits must be a whole number')
    .min(0, '--credits must not be negative'),
  name: z.string().optional(),
});

function parse(args: string[], requireCredits: boolean) {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, credits: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  });
  if (!values.email) throw new Error('--email is required');
  if (requireCredits && values.credits === undefined) throw new Error('--credits is required');
  const parsed = argsSchema.safeParse({ ...values, credits: values.credits ?? '0' });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
  return parsed.data;
}

async function findOrCreateUser(email: string): Promise<{ id: string; created: boolean }> {
  const existing = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (existing) return { id: existing.id, created: false };
  const user = await db().user.create({ data: { email }, select: { id: true } });
  return { id: user.id, created: true };
}

export async function keysCreate(args: string[]): Promise<number> {
  const { email, credits, name } = parse(args, false);
  const user = await findOrCreateUser(email);
  if (user.created) console.log(`Created account ${email} (${user.id})`);
  if (credits > 0) {
    await grantCredits(defaultPorts, user.id, credits, {
      kind: 'grant',
      note: 'Granted with keyout keys create',
    });
    console.log(`Granted ${credits} credits`);
  }
  const key = await createApiKey(defaultPorts, user.id, {
    name: name ?? 'CLI',
    issuedByOperator: true,
  });
  console.log(`API key for ${email} (shown once, store it now):`);
  console.log(key.key);
  return 0;
}

export async function creditsGrant(args: string[]): Promise<number> {
  const { email, credits } = parse(args, true);
  if (credits <= 0) throw new Error('--credits must be a positive whole number');
  const user = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (!user) throw new Error(`No account with e-mail ${email}`);
  await grantCredits(defaultPorts, user.id, credits, {
    kind: 'grant',
    note: 'Granted with keyout credits grant',
  });
  console.log(`Granted ${credits} credits to ${email}`);
  return 0;
}

/**
 * `keyout users reset-link --email <e>`: a one-time password-reset link (valid for an hour),
 * printed alone on the last line, for servers that send no e-mail.
 */
export async function usersResetLink(args: string[]): Promise<number> {
  const { email } = parse(args, false);
  const issued = await issueResetLink(defaultPorts, email);
  if (!issued) throw new Error(`No account with e-mail ${email}`);
  console.log(
    `Password-reset link for ${email} (works once, until ${issued.expiresAt.toISOString()}):`,
  );
  console.log(issued.link);
  return 0;
}
