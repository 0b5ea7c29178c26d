import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../auth/password';
import { transaction } from '../../db/transaction';
import { env } from '../../env';
import { canSendMail, sendMail } from '../../mail';
import type { Ports } from '../ports';
import { signUpInput } from './sign-up';

/** A reset link works once, within an hour. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A one-time password-reset link for the account with this e-mail, or null when there is none.
 * Only the token's hash is stored; an earlier unused link of the account stops working.
 * Issued by an administrator (Admin page), the CLI (`keyout users reset-link`) or, when SMTP is
 * configured, by e-mail to the account itself.
 */
export async function issueResetLink(
  ports: Ports,
  email: string,
): Promise<{ link: string; expiresAt: Date } | null> {
  const user = await ports.db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true },
  });
  if (!user) return null;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ports.clock.now().getTime() + RESET_LINK_TTL_MS);
  await ports.db.$transaction([
    ports.db.passwordResetToken.deleteMany({ where: { userId: user.id, usedAt: null } }),
    ports.db.passwordResetToken.create({
      data: { userId: user.id, tokenHash: hashToken(token), expiresAt },
    }),
  ]);
  return {
    link: `${env().PUBLIC_URL.replace(/\/$/, '')}/reset-password?token=${token}`,
    expiresAt,
  };
}

/**
 * "Forgot your password?": e-mails a reset link when SMTP is configured and the account
 * exists. The answer never says whether an account exists.
 */
export async function requestResetByEmail(
  ports: Ports,
  email: string,
): Promise<{ emailed: boolean }> {
  if (!canSendMail()) return { emailed: false };
  const issued = await issueResetLink(ports, email);
  if (issued) {
    await sendMail(
      email.trim().toLowerCase(),
      'Reset your Keyout password',
      'Someone (hopefully you) asked to reset the password of your ' +
        'Keyout account.\n\nSet a new password here (the link works ' +
        `once, for one hour):\n${issued.link}\n\nIf it was not you, ` +
        'ignore this e-mail: your password stays as it is.\n',
    );
  }
  return { emailed: true };
}

export type ResetResult = { ok: true; userId: string } | { ok: false; error: string };

/** Whether a reset token is still good (for the page to say so before the form is filled in). */
export async function resetTokenValid(ports: Ports, token: string): Promise<boolean> {
  const row = await ports.db.passwordResetToken.findUnique({
    where: { tokenHash: hashToken(token) },
  });
  return Boolean(row && !row.usedAt && row.expiresAt > ports.clock.now());
}

/**
 * Sets a new password with a reset token: once, before it expires. Every session of the
 * account ends (whoever knew the old password is signed out).
 */
export async function resetPassword(
  ports: Ports,
  token: string,
  password: string,
): Promise<ResetResult> {
  const now = ports.clock.now();
  const checked = signUpInput.shape.password.safeParse(password);
  if (!checked.success)
    return { ok: false, error: checked.error.issues[0]?.message ?? 'Choose another password.' };
  const passwordHash = await hashPassword(password);
  const expired = {
    ok: false as const,
    error: 'This reset link has expired or was already used. Ask for a new one.',
  };
  return transaction(ports.db, async (tx) => {
    // Claiming the token is the first write, so two uses of one link cannot both pass.
    const claimed = await tx.passwordResetToken.updateMany({
      where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) return expired;
    const row = await tx.passwordResetToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(token) },
    });
    await tx.user.update({ where: { id: row.userId }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId: row.userId } });
    return { ok: true as const, userId: row.userId };
  });
}
