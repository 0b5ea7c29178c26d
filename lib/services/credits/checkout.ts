import { env } from '../../env';
import { ServiceError } from '../../errors';
import { parseIpLiteral } from '../../net/address';
import type { Ports } from '../ports';
import { grantCredits } from './grant-credits';

export interface CreditPack {
  id: string;
  credits: number;
  /** Price in US cents. */
  priceCents: number;
  blurb: string;
}

export const CREDIT_PACKS: readonly CreditPack[] = [
  {
    id: 'starter',
    credits: 100,
    priceCents: 1000,
    blurb: 'About 2 minutes of video on the Original model',
  },
  { id: 'creator', credits: 500, priceCents: 4500, blurb: 'About 8 minutes of video; 10% off' },
  { id: 'studio', credits: 2000, priceCents: 16000, blurb: 'About 33 minutes of video; 20% off' },
];

export function findPack(id: string): CreditPack {
  const pack = CREDIT_PACKS.find((p) => p.id === id);
  if (!pack) throw new ServiceError('invalid', 'Unknown credit pack');
  return pack;
}

export type CheckoutMode = 'stripe' | 'test' | 'unavailable';

function isLoopbackOrigin(url: string): boolean {
  const host = new URL(url).hostname;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    parseIpLiteral(host)?.range() === 'loopback'
  );
}

/** Who may use the test-mode checkout (TEST_CHECKOUT, resolved). */
export function testCheckoutPolicy(): 'on' | 'admin' | 'off' {
  const { TEST_CHECKOUT, PUBLIC_URL } = env();
  if (TEST_CHECKOUT !== 'auto') return TEST_CHECKOUT;
  return isLoopbackOrigin(PUBLIC_URL) ? 'on' : 'admin';
}

/**
 * How `userId` can buy credits: Stripe when it is configured; otherwise the test-mode checkout
 * where TEST_CHECKOUT allows it for them (free "purchases" unlock API keys, so a public instance
 * must not hand them to everyone); otherwise not at all.
 */
export async function checkoutMode(ports: Ports, userId: string): Promise<CheckoutMode> {
  if (env().STRIPE_SECRET_KEY) return 'stripe';
  const policy = testCheckoutPolicy();
  if (policy === 'on') return 'test';
  if (policy === 'admin') {
    const user = await ports.db.user.findUnique({
      where: { id: userId },
      select: { isAdmin: true },
    });
    if (user?.isAdmin) return 'test';
  }
  return 'unavailable';
}

type StripeSession = {
  id: string;
  url?: string;
  payment_status?: string;
  metadata?: Record<string, string>;
  client_reference_id?: string;
};

async function stripe(
  pathname: string,
  init: { method: 'GET' | 'POST'; form?: Record<string, string> },
): Promise<StripeSession> {
  const res = await fetch(`https://api.stripe.com/v1/${pathname}`, {
    method: init.method,
    headers: {
      Authorization: `Bearer ${env().STRIPE_SECRET_KEY}`,
      ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: init.form ? new URLSearchParams(init.form) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as StripeSession & { error?: { message?: string } };
  if (!res.ok)
    throw new ServiceError(
      'invalid',
      `The payment provider refused the request: ${body.error?.message ?? res.status}`,
    );
  return body;
}

/**
 * Buys a credit pack. Without Stripe configured this is the test-mode checkout, which records
 * the purchase at once, where TEST_CHECKOUT allows it. With STRIPE_SECRET_KEY it opens a Stripe
 * Checkout session (priced with STRIPE_PRICE_ID per credit when set, else the pack's price)
 * and the credits are recorded when the buyer returns (confirmStripeCheckout).
 */
export async function startCheckout(
  ports: Ports,
  userId: string,
  packId: string,
  origin: string,
): Promise<{ mode: 'test'; credits: number } | { mode: 'stripe'; url: string }> {
  const pack = findPack(packId);
  const mode = await checkoutMode(ports, userId);
  if (mode === 'unavailable') {
    throw new ServiceError(
      'forbidden',
      'Buying credits is not available on this instance',
      'Ask its administrator for credits.',
    );
  }
  if (mode === 'test') {
    await grantCredits(ports, userId, pack.credits, {
      kind: 'purchase',
      note: `Credit pack "${pack.id}" (test-mode checkout)`,
    });
    return { mode: 'test', credits: pack.credits };
  }
  const { STRIPE_PRICE_ID } = env();
  const lineItem: Record<string, string> = STRIPE_PRICE_ID
    ? { 'line_items[0][price]': STRIPE_PRICE_ID, 'line_items[0][quantity]': String(pack.credits) }
    : {
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': String(pack.priceCents),
        'line_items[0][price_data][product_data][name]': `Keyout credits: ${pack.credits}`,
      };
  const session = await stripe('checkout/sessions', {
    method: 'POST',
    form: {
      mode: 'payment',
      client_reference_id: userId,
      'metadata[pack]': pack.id,
      success_url: `${origin}/credits?checkout={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/credits?checkout=cancelled`,
      ...lineItem,
    },
  });
  if (!session.url)
    throw new ServiceError('invalid', 'The payment provider did not return a checkout page');
  return { mode: 'stripe', url: session.url };
}

/**
 * Records the credits of a paid Stripe Checkout session once (the session id is the ledger
 * idempotency key), whichever way the buyer comes back.
 */
export async function confirmStripeCheckout(
  ports: Ports,
  userId: string,
  sessionId: string,
): Promise<{ credits: number } | null> {
  if (!env().STRIPE_SECRET_KEY || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) return null;
  const session = await stripe(`checkout/sessions/${sessionId}`, { method: 'GET' });
  if (session.client_reference_id !== userId || session.payment_status !== 'paid') return null;
  const pack = findPack(session.metadata?.pack ?? '');
  const idempotencyKey = `stripe:${session.id}`;
  const existing = await ports.db.creditEntry.findUnique({ where: { idempotencyKey } });
  if (!existing) {
    await ports.db.creditEntry
      .create({
        data: {
          userId,
          kind: 'purchase',
          amount: pack.credits,
          idempotencyKey,
          note: `Credit pack "${pack.id}" (Stripe ${session.id})`,
        },
      })
      .catch((err: { code?: string }) => {
        if (err.code !== 'P2002') throw err; // recorded by a concurrent return
      });
  }
  return { credits: pack.credits };
}
