import { verifyPassword } from '../../auth/password';
import type { Ports } from '../ports';

/** Returns the user id when the email and password match an account, otherwise null. */
export async function authenticateUser(
  ports: Ports,
  email: string,
  password: string,
): Promise<string | null> {
  const user = await ports.db.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, passwordHash: true },
  });
  // Always run one bcrypt comparison so unknown emails take as long as wrong passwords.
  const ok = await verifyPassword(password, user?.passwordHash);
  return ok && user?.passwordHash ? user.id : null;
}
