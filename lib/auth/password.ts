import bcrypt from 'bcryptjs';

const COST = 12;
// A real hash of a random string: comparing against it when the email is unknown keeps the
// response time the same as for a wrong password, so sign-in does not reveal which emails exist.
const DUMMY_HASH = '$2b$12$eHiyBboEqO.7QXmdOkMrC.PQtWRW7wAYBNvpRrgPF2m4ghHjo1f2u';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(
  password: string,
  hash: string | null | undefined,
): Promise<boolean> {
  return bcrypt.compare(password, hash ?? DUMMY_HASH);
}
