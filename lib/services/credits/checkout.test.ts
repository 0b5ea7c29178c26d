import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signUpOwnerAndMember } from '../../../tests/support/owner-and-member';
import { tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { resetEnvForTests } from '../../env';
import { checkoutMode, startCheckout } from './checkout';
import { defaultPorts } from '../ports';

// A real SQLite database in a temp DATA_DIR, as the web process uses it.
tempDatabase('checkout');
const ids = { admin: '', member: '' };
const configure = (vars: Record<string, string | undefined>) => {
  for (const k of ['PUBLIC_URL', 'TEST_CHECKOUT', 'STRIPE_SECRET_KEY']) delete process.env[k];
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) process.env[k] = v;
  resetEnvForTests();
};

beforeAll(async () => {
  configure({});
  const { owner, member } = await signUpOwnerAndMember();
  if (!owner.ok || !member.ok) throw new Error('sign-up failed');
  [ids.admin, ids.member] = [owner.userId, member.userId];
});
beforeEach(() => configure({}));
afterAll(() => configure({}));

const purchases = (userId: string) =>
  db().creditEntry.count({ where: { userId, kind: 'purchase' } });

describe('the test-mode checkout is an explicit setting', () => {
  it('is on for everyone in the embedded set-up (PUBLIC_URL on this machine)', async () => {
    for (const url of [
      undefined,
      'http://localhost:3917',
      'http://127.0.0.1:4000',
      'http://[::1]:3000',
    ]) {
      configure({ PUBLIC_URL: url });
      expect(await checkoutMode(defaultPorts, ids.member)).toBe('test');
    }
  });

  it('on an instance with a public address, only the first administrator gets it', async () => {
    configure({ PUBLIC_URL: 'https://keyout.example.com' });
    expect(await checkoutMode(defaultPorts, ids.admin)).toBe('test');
    expect(await checkoutMode(defaultPorts, ids.member)).toBe('unavailable');
    await expect(
      startCheckout(defaultPorts, ids.member, 'starter', 'https://keyout.example.com'),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Buying credits is not available on this instance',
    });
    expect(await purchases(ids.member)).toBe(0);
    expect(
      await startCheckout(defaultPorts, ids.admin, 'starter', 'https://keyout.example.com'),
    ).toEqual({
      mode: 'test',
      credits: 100,
    });
  });

  it('TEST_CHECKOUT=off, on and admin say so whatever the address', async () => {
    configure({ TEST_CHECKOUT: 'off' });
    expect([
      await checkoutMode(defaultPorts, ids.admin),
      await checkoutMode(defaultPorts, ids.member),
    ]).toEqual(['unavailable', 'unavailable']);
    configure({ TEST_CHECKOUT: 'on', PUBLIC_URL: 'https://keyout.example.com' });
    expect(await checkoutMode(defaultPorts, ids.member)).toBe('test');
    configure({ TEST_CHECKOUT: 'admin' });
    expect([
      await checkoutMode(defaultPorts, ids.admin),
      await checkoutMode(defaultPorts, ids.member),
    ]).toEqual(['test', 'unavailable']);
  });

  it('Stripe, when configured, is the checkout for everyone', async () => {
    configure({ STRIPE_SECRET_KEY: 'sk_test_x', TEST_CHECKOUT: 'off' });
    expect(await checkoutMode(defaultPorts, ids.member)).toBe('stripe');
  });
});
