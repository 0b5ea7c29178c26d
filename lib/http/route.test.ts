import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey, hashApiKey } from '../auth/api-keys';
import { db } from '../db/client';
import { resetEnvForTests } from '../env';
import { PEER_HEADER } from './node-edge';
import { currentWindow } from './rate-limit';
import { apiRoute, otherMethods, publicRoute } from './route';

// The /v1 wrapper as the route handlers use it, with a real SQLite database in a temp DATA_DIR.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-route-'));
let goodKey: string;

beforeAll(async () => {
  // The clock stands still one second into a minute an hour ahead: the throttling tests count
  // requests in one rate-limit window, and a minute's end in the middle of them would reset it.
  vi.useFakeTimers({ toFake: ['Date'], now: currentWindow(Date.now() + 3_600_000).start + 1_000 });
  process.env.DATA_DIR = dataDir;
  resetEnvForTests();
  const user = await db().user.create({ data: { email: 'owner@example.com' } });
  goodKey = generateApiKey();
  await db().apiKey.create({
    data: { userId: user.id, prefix: goodKey.slice(0, 9), hash: hashApiKey(goodKey) },
  });
});
afterAll(async () => {
  vi.useRealTimers();
  await db().$disconnect();
  delete process.env.DATA_DIR;
  resetEnvForTests();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const noParams = { params: Promise.resolve({}) };
/** A request as node-edge.ts hands it on: the connection's address stamped on it. */
const request = (headers: Record<string, string>, address = '203.0.113.7', method = 'GET') =>
  new Request('http://localhost/v1/anything', {
    method,
    headers: { [PEER_HEADER]: address, ...headers },
  });
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;
const ok = apiRoute(() => Promise.resolve({ body: { ok: true } }));

function expectApiHeaders(res: Response) {
  expect(res.headers.get('x-api-version')).toBe('1.6.0');
  expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
}

describe('the key check', () => {
  it(
    'calls any header plainly meant as the key (a name with "key" ' +
      'or "auth" in it) an invalid key',
    async () => {
      for (const [i, name] of [
        'Api-Key',
        'X-Key',
        'Authorization',
        'X-Auth-Token',
        'X-Api_Key',
      ].entries()) {
        expect(
          await errorOf(await ok(request({ [name]: 'abc' }, `198.51.100.${i}`), noParams)),
        ).toBe('Invalid API key');
      }
    },
  );

  it('still calls a request with no key and only headers of its own a missing key', async () => {
    const res = await ok(
      request({ 'Idempotency-Key': 'abc', Accept: 'application/json' }, '198.51.100.200'),
      noParams,
    );
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe('API key required');
  });

  it('throttles the wrong keys of an address, never its good key', async () => {
    const address = '192.0.2.10';
    const answers = [];
    for (let i = 0; i < 31; i++)
      answers.push((await ok(request({ 'X-Api-Key': 'ko_wrong' }, address), noParams)).status);
    expect(answers.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(answers[30]).toBe(429);
    // Behind one reverse proxy every client shares an address: the good key still works…
    const good = await ok(request({ 'X-Api-Key': goodKey }, address), noParams);
    expect(good.status).toBe(200);
    // …while the wrong ones stay refused for the rest of the minute.
    const wrong = await ok(request({ 'X-Api-Key': 'ko_wrong' }, address), noParams);
    expect(wrong.status).toBe(429);
    expect(wrong.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('the start allowance', () => {
  /** A start handler as the start route is: it admits a start only when a new one happens. */
  const start = apiRoute<{ replay: string }>(({ req, admitStart }) => {
    if (req.headers.get('x-replay') !== '1') admitStart();
    return Promise.resolve({ body: { ok: true } });
  });
  const starting = (replay: boolean) =>
    start(
      request(
        { 'X-Api-Key': goodKey, ...(replay ? { 'X-Replay': '1' } : {}) },
        '192.0.2.20',
        'POST',
      ),
      { params: Promise.resolve({ replay: '' }) },
    );

  it('lets replays through without using up one of the three starts a minute', async () => {
    expect((await starting(false)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await starting(true)).status).toBe(200);
    expect((await starting(false)).status).toBe(200);
    expect((await starting(false)).status).toBe(200);
    const fourth = await starting(false);
    expect(fourth.status).toBe(429);
    expect(await errorOf(fourth)).toBe('Rate limit exceeded');
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    // A replay past the allowance changes nothing and is still answered.
    expect((await starting(true)).status).toBe(200);
  });
});

describe('headers on every response', () => {
  it('puts the version and rate-limit headers on public answers (the OpenAPI document)', () => {
    expectApiHeaders(publicRoute(() => ({ body: 'openapi: 3.1.0' }))(request({})));
  });

  it(
    'answers OPTIONS with 200, the methods in Allow and a JSON ' + 'body, and the headers',
    async () => {
      const { OPTIONS } = otherMethods('POST');
      const res = await OPTIONS(request({}, '192.0.2.30', 'OPTIONS'), noParams);
      expect(res.status).toBe(200);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await res.json()).toEqual({ allow: ['POST', 'OPTIONS'] });
      expectApiHeaders(res);
      const get = await otherMethods('GET', { public: true }).OPTIONS(
        request({}, '192.0.2.30', 'OPTIONS'),
        noParams,
      );
      expect(get.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    },
  );
});
