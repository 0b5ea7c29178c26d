import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createAccount,
  createKey,
  keyout,
  roomInWindow,
  stackDb,
  startStack,
  type Stack,
  type TestAccount,
} from './helpers';

let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack();
  account = await createAccount(stack, 25);
});
afterAll(async () => {
  await stack?.stop();
});

function expectCommonHeaders(headers: Headers) {
  expect(headers.get('x-api-version')).toBe('1.6.0');
  expect(headers.get('x-ratelimit-limit')).toBe('100');
  expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
}

describe('authentication', () => {
  it('answers 401 "API key required" when no key is sent', async () => {
    const r = await api(stack, 'GET', '/v1/credits');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'API key required' });
    expectCommonHeaders(r.headers);
  });

  it('answers 401 "Invalid API key" for an unknown key', async () => {
    const r = await api(stack, 'GET', '/v1/credits', { key: `ko_${'x'.repeat(32)}` });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Invalid API key' });
    expectCommonHeaders(r.headers);
  });

  it('answers 401 "Invalid API key" for a key under a wrong header name', async () => {
    const r = await api(stack, 'GET', '/v1/credits', {
      headers: { Authorization: `Bearer ${account.key}` },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Invalid API key' });
  });

  it('accepts the header in any case and a JSON content type on a bodiless GET', async () => {
    for (const name of ['X-Api-Key', 'X-API-Key', 'x-api-key']) {
      const r = await api(stack, 'GET', '/v1/credits', { headers: { [name]: account.key } });
      expect(r.status).toBe(200);
      expectCommonHeaders(r.headers);
    }
  });

  it('reports the balance from the ledger, with user_id', async () => {
    const r = await api(stack, 'GET', '/v1/credits', { key: account.key });
    expect(String(r.body.user_id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body).toEqual({
      user_id: r.body.user_id,
      total_credits: 25,
      remaining_credits: 25,
      used_credits: 0,
    });
    await keyout(stack, ['credits', 'grant', '--email', account.email, '--credits', '5']);
    const after = await api(stack, 'GET', '/api/v1/credits', { key: account.key });
    expect(after.body).toMatchObject({ total_credits: 30, remaining_credits: 30, used_credits: 0 });
  });
});

describe('paths and methods that are not endpoints', () => {
  it("answer the spec's JSON error body, not an empty 405 or an HTML page", async () => {
    for (const prefix of ['/v1', '/api/v1']) {
      const wrongMethod = await api(
        stack,
        'GET',
        `${prefix}/jobs/00000000-0000-4000-8000-000000000000`,
        { key: account.key },
      );
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('DELETE, OPTIONS');
      expect(wrongMethod.body).toEqual({
        error: 'Method not allowed',
        details: `${prefix}/jobs/00000000-0000-4000-8000-000000000000 accepts DELETE.`,
      });
      const listJobs = await api(stack, 'GET', `${prefix}/jobs`, { key: account.key });
      expect([listJobs.status, listJobs.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
      const putCredits = await api(stack, 'PUT', `${prefix}/credits`, {
        key: account.key,
        body: {},
      });
      expect([putCredits.status, putCredits.headers.get('allow')]).toEqual([
        405,
        'GET, HEAD, OPTIONS',
      ]);

      const unknown = await api(stack, 'POST', `${prefix}/jobs/x/nothing`, {
        key: account.key,
        body: {},
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        error: 'Not found',
        details: `There is no API endpoint POST ${prefix}/jobs/x/nothing.`,
      });
      expect(unknown.headers.get('content-type')).toContain('application/json');
    }
    // The real endpoints still answer.
    expect((await api(stack, 'GET', '/api/v1/credits', { key: account.key })).status).toBe(200);
  });
});

describe('keys', () => {
  it(
    'are the fixed prefix plus 32 characters, stored only as a ' + 'hash, and stamped when used',
    async () => {
      expect(account.key).toMatch(/^ko_[A-Za-z0-9]{32}$/);
      const prisma = await stackDb(stack);
      const rows = await prisma.apiKey.findMany({ where: { user: { email: account.email } } });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]!.hash).not.toContain(account.key.slice(3));
      expect(account.key.startsWith(rows[0]!.prefix)).toBe(true);
      expect(rows[0]!.lastUsedAt).toBeInstanceOf(Date);
    },
  );

  it(
    'answers 401 "Invalid API key" once a key is revoked; the ' + 'account’s other keys still work',
    async () => {
      const second = await createKey(stack, account.email);
      expect((await api(stack, 'GET', '/v1/credits', { key: second })).status).toBe(200);
      const prisma = await stackDb(stack);
      await prisma.apiKey.updateMany({
        where: { prefix: second.slice(0, 9) },
        data: { revokedAt: new Date() },
      });
      const r = await api(stack, 'GET', '/v1/credits', { key: second });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'Invalid API key' });
      expect((await api(stack, 'GET', '/v1/credits', { key: account.key })).status).toBe(200);
    },
  );
});

describe('rate limit', () => {
  it(
    'allows 100 requests per minute per key, then 429 with ' +
      'Retry-After; other keys are unaffected',
    async () => {
      const busy = await createAccount(stack, 1);
      const other = await createAccount(stack, 1);
      await roomInWindow(40);
      const first = await api(stack, 'GET', '/v1/credits', { key: busy.key });
      expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
      const reset = Number(first.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      for (let batch = 0; batch < 9; batch++) {
        const rs = await Promise.all(
          Array.from({ length: 11 }, () => api(stack, 'GET', '/v1/credits', { key: busy.key })),
        );
        for (const r of rs) expect(r.status).toBe(200);
      }
      const last = await api(stack, 'GET', '/v1/credits', { key: busy.key });
      expect(last.status).toBe(429);
      expect(last.body.error).toBe('Rate limit exceeded');
      expect(typeof last.body.details).toBe('string');
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.headers.get('x-api-version')).toBe('1.6.0');
      expect((await api(stack, 'GET', '/v1/credits', { key: other.key })).status).toBe(200);
    },
  );
});
