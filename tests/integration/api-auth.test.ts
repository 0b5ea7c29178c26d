import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, keyout, startStack, type Stack, type TestAccount } from './helpers';

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
    const r = await api(stack, 'GET', '/v1/credits', { headers: { Authorization: `Bearer ${account.key}` } });
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
