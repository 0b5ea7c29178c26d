import { signUp } from '../../lib/services/accounts/sign-up';
import { defaultPorts } from '../../lib/services/ports';

const password = 'long enough password';

/**
 * Signs up a fresh instance's first account (its administrator) and then a member, in the temp
 * database of tempDatabase; what each sign-up answered.
 */
export async function signUpOwnerAndMember(ownerEmail = 'owner@example.com') {
  const owner = await signUp(defaultPorts, { email: ownerEmail, password });
  const member = await signUp(defaultPorts, { email: 'member@example.com', password });
  return { owner, member };
}
