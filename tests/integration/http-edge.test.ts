import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../lib/storage/local';
import {
  api,
  createAccount,
  roomInWindow,
  stackDb,
  startStack,
  syntheticClip,
  uploadedJob,
  waitFor,
  type Stack,
  type TestAccount,
} from './helpers';

/**
 * The HTTP edge as a hostile or careless client meets it: every answer, including those made
 * before any route handler runs, is the spec's JSON error body; bodies are capped while they
 * stream; addresses that keep sending bad keys are throttled.
 */
let stack: Stack;
let account: TestAccount;

beforeAll(async () => {
  stack = await startStack({
    env: { MAX_UPLOAD_BYTES: String(4 * 1024 * 1024), AUTH_FAILURES_PER_MINUTE: '20' },
  });
  account = await createAccount(stack, 100);
});
afterAll(async () => {
  await stack?.stop();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request exactly as written (no URL normalisation), optionally from another local address. */
function raw(
  method: string,
  target: string,
  opts: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: stack.port,
      method,
      path: target,
      headers: opts.headers,
      localAddress: opts.localAddress,
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes written on a raw socket, and everything the server sends back before closing. */
function rawSocket(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(stack.port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
    setTimeout(() => socket.end(), 2000);
  });
}

function expectSpecError(
  text: string,
  headers?: http.IncomingHttpHeaders,
): { error: string; details?: string } {
  const body = JSON.parse(text) as { error: string; details?: string };
  expect(typeof body.error).toBe('string');
  expect(Object.keys(body).every((k) => k === 'error' || k === 'details')).toBe(true);
  if (headers) {
    expect(headers['content-type']).toContain('application/json');
    expect(headers['x-api-version']).toBe('1.6.0');
  }
  return body;
}

describe('answers made before any route handler', () => {
  it('/v1 and /api/v1 themselves: the key is checked, then the JSON 404', async () => {
    for (const p of ['/v1', '/api/v1', '/v1/', '/api/v1/']) {
      const anonymous = await raw('GET', p);
      expect(anonymous.status).toBe(401);
      expectSpecError(anonymous.text, anonymous.headers);
      const r = await raw('GET', p, { headers: { 'X-Api-Key': account.key } });
      expect(r.status).toBe(404);
      expect(expectSpecError(r.text, r.headers).error).toBe('Not found');
      expect(r.headers['x-ratelimit-limit']).toBe('100');
    }
  });

  it(
    'a trailing slash or a doubled one reaches the same endpoint ' + 'instead of a 308 redirect',
    async () => {
      for (const p of ['/v1/credits/', '/api/v1/credits/', '/v1//credits', '//api//v1/credits']) {
        const r = await raw('GET', p, { headers: { 'X-Api-Key': account.key } });
        expect(r.status).toBe(200);
        expect(JSON.parse(r.text)).toMatchObject({ remaining_credits: 100 });
      }
      const created = await api(stack, 'POST', '/v1/jobs/', {
        key: account.key,
        body: { filename: 'a.mp4', content_type: 'video/mp4' },
      });
      expect(created.status).toBe(200);
      expect(created.body.status).toBe('created');
    },
  );

  it('a path with broken percent-encoding is a JSON 400, not a text 500', async () => {
    for (const p of [
      '/v1/jobs/%zz/status',
      '/v1/%',
      '/api/v1/jobs/%E0%A4%A/status',
      '/files/jobs/%zz',
      '/%',
    ]) {
      const r = await raw('GET', p, { headers: { 'X-Api-Key': account.key } });
      expect(r.status, p).toBe(400);
      expectSpecError(r.text, r.headers);
    }
  });

  it(
    'methods Next.js cannot route (TRACE, PROPFIND…) are a JSON ' + '405; made-up ones a JSON 400',
    async () => {
      for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK']) {
        const r = await raw(method, '/v1/jobs', { headers: { 'X-Api-Key': account.key } });
        expect(r.status, method).toBe(405);
        expectSpecError(r.text, r.headers);
        expect(r.headers.allow).toContain('GET');
      }
      // Node's parser knows only registered methods.
      const brew = await rawSocket('BREW /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(brew).toMatch(/^HTTP\/1\.1 400 /);
      expectSpecError(brew.slice(brew.indexOf('\r\n\r\n') + 4));
    },
  );

  it("requests Node's parser refuses get the JSON body too (431, 400)", async () => {
    const big = await rawSocket(
      `GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-Junk: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expectSpecError(big.slice(big.indexOf('\r\n\r\n') + 4));
    const garbage = await rawSocket('GARBAGE\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expectSpecError(garbage.slice(garbage.indexOf('\r\n\r\n') + 4));
    const badHeader = await rawSocket(
      'GET /v1/credits HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n',
    );
    expect(badHeader).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('the 404 catch-all and 405 answers behave like endpoints', () => {
  it('check the key first, then answer with the rate-limit and version headers', async () => {
    await roomInWindow(10);
    const targets: [string, string, number][] = [
      ['POST', '/v1/nothing/here', 404],
      ['GET', '/api/v1/jobs/x/nothing', 404],
      ['GET', '/v1/jobs', 405],
      ['PUT', '/v1/credits', 405],
    ];
    for (const [method, p, status] of targets) {
      const anonymous = await raw(method, p);
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.text)).toEqual({ error: 'API key required' });
      const wrong = await raw(method, p, { headers: { 'X-Api-Key': `ko_${'y'.repeat(32)}` } });
      expect(JSON.parse(wrong.text)).toEqual({ error: 'Invalid API key' });
      const before = await api(stack, 'GET', '/v1/credits', { key: account.key });
      const r = await raw(method, p, { headers: { 'X-Api-Key': account.key } });
      expect(r.status).toBe(status);
      expectSpecError(r.text, r.headers);
      expect(r.headers['x-ratelimit-limit']).toBe('100');
      expect(Number(r.headers['x-ratelimit-remaining'])).toBe(
        Number(before.headers.get('x-ratelimit-remaining')) - 1,
      );
      expect(r.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    }
  });
});

describe('bodies are capped while they stream', () => {
  it(
    'a 64 MB chunked JSON body is refused with 413 after about 1 ' + 'MiB, not read whole',
    async () => {
      const res = await new Promise<{ status: number; text: string; sent: number }>(
        (resolve, reject) => {
          const req = http.request({
            host: '127.0.0.1',
            port: stack.port,
            method: 'POST',
            path: '/v1/jobs',
            headers: {
              'X-Api-Key': account.key,
              'Content-Type': 'application/json',
              'Transfer-Encoding': 'chunked',
            },
          });
          let sent = 0;
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          const pump = () => {
            while (sent < 64 * 1024 * 1024) {
              sent += chunk.length;
              if (!req.write(chunk)) return req.once('drain', pump);
            }
            req.end();
          };
          req.on('response', (r) => {
            let text = '';
            r.on('data', (d: Buffer) => (text += d.toString()));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, text, sent }));
          });
          // Writes fail once the server closes; the answer must have come before that.
          req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
          req.on('close', () =>
            setTimeout(
              () =>
                reject(new Error(`the connection closed without an answer after ${sent} bytes`)),
              200,
            ),
          );
          pump();
        },
      );
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'Request body too large' });
      expect(res.sent).toBeLessThan(64 * 1024 * 1024);
    },
  );

  it(
    'an error answered before the body was read: the client reads ' +
      'it, and a keep-alive client is told when the connection closes',
    async () => {
      // One connection for every request, as a keep-alive client pool with one socket.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string, target: string, body: Buffer, key = `ko_${'q'.repeat(32)}`) =>
        new Promise<Raw>((resolve, reject) => {
          const req = http.request({
            host: '127.0.0.1',
            port: stack.port,
            method,
            path: target,
            agent,
            localAddress: '127.0.0.77',
            headers: {
              'X-Api-Key': key,
              'Content-Type': 'application/json',
              'Content-Length': String(body.length),
            },
          });
          req.on('response', (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text }),
            );
          });
          req.on('error', reject);
          req.end(body);
        });
      try {
        for (const size of [200_000, 1_200_000, 8_000_000]) {
          const body = Buffer.alloc(size, 0x20);
          for (const [method, target, status] of [
            ['POST', '/v1/jobs', 401],
            ['TRACE', '/v1/jobs', 405],
            ['POST', '/files/jobs/x/source', 405],
          ] as const) {
            const r = await send(method, target, body);
            expect(r.status, `${method} ${target} ${size}`).toBe(status);
            expectSpecError(r.text, r.headers);
            // Up to 1 MiB is read and dropped, and the connection lives on; past that it is closed,
            // and says so.
            if (size > 1024 * 1024 && status !== 405) expect(r.headers.connection).toBe('close');
            // The next request on the pool's connection is answered, not reset.
            const next = await send('POST', '/v1/jobs', Buffer.from('{}'), account.key);
            expect(next.status).toBe(400);
          }
        }
      } finally {
        agent.destroy();
      }
    },
  );

  it(
    'keeps an idle keep-alive connection for 60 s, not 5: a client ' +
      'that writes late on a pooled connection is answered',
    async () => {
      // Node closed idle connections after 5 s: a loaded client that took a pooled connection and
      // wrote its upload some seconds later got EPIPE and no answer.
      const socket = net.connect(stack.port, '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      const ask = () =>
        socket.write(`GET /v1/openapi HTTP/1.1\r\nHost: 127.0.0.1:${stack.port}\r\n\r\n`);
      const answers = () => text.split('HTTP/1.1 200').length - 1;
      try {
        ask();
        await waitFor(() => Promise.resolve(answers() === 1 ? true : undefined), {
          timeoutMs: 30_000,
          intervalMs: 50,
          what: 'the first answer',
        });
        expect(text).toMatch(/^keep-alive: timeout=60\r$/im);
        await new Promise((r) => setTimeout(r, 7_000));
        expect(socket.readyState).toBe('open');
        ask();
        await waitFor(() => Promise.resolve(answers() === 2 ? true : undefined), {
          timeoutMs: 30_000,
          intervalMs: 50,
          what: 'the answer on the same connection',
        });
      } finally {
        socket.destroy();
      }
    },
  );

  it(
    'a truncated multipart upload is a 400 and leaves no job, file ' + 'or uncaught exception',
    async () => {
      const clip = await syntheticClip(path.join(stack.dataDir, 'small.mp4'), { seconds: 1 });
      const bytes = fs.readFileSync(clip);
      const boundary = 'cutoff';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
        'filename="cut-off.mp4"\r\nContent-Type: video/mp4\r\n\r\n';
      const full = Buffer.concat([
        Buffer.from(head),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      // Declares the whole form, sends half, then closes its side.
      const reply = await rawSocket(
        Buffer.concat([
          Buffer.from(
            'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Api-Key: ' +
              `${account.key}\r\nContent-Type: multipart/form-data; ` +
              `boundary=${boundary}\r\nContent-Length: ${full.length}\r\n\r\n`,
          ),
          full.subarray(0, Math.floor(full.length / 2)),
        ]),
      );
      // The client went away, so it may read nothing; whatever it reads is a 400 with the body.
      if (reply) {
        expect(reply).toMatch(/^HTTP\/1\.1 400 /);
        expectSpecError(reply.slice(reply.indexOf('\r\n\r\n') + 4));
      }
      // A form whose closing boundary never comes, on a connection that stays open and ends
      // cleanly.
      const cut = await fetch(`${stack.baseUrl}/v1/jobs`, {
        method: 'POST',
        headers: {
          'X-Api-Key': account.key,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
        },
        body: full.subarray(0, full.length - 20),
      });
      expect(cut.status).toBe(400);
      expect(await cut.json()).toMatchObject({ error: 'Incomplete multipart upload' });
      await new Promise((r) => setTimeout(r, 500));
      expect(stack.logs()).not.toMatch(
        /uncaughtException|Unexpected end of (form|file)|Internal server error/i,
      );
      expect(fs.readdirSync(path.join(stack.dataDir, 'tmp'))).toEqual([]);
      expect(await (await stackDb(stack)).job.count({ where: { filename: 'cut-off.mp4' } })).toBe(
        0,
      );
    },
  );
});

describe('files', () => {
  it(
    'are served with X-Content-Type-Options: nosniff, and other ' + 'methods get the JSON 405',
    async () => {
      const clip = await syntheticClip(path.join(stack.dataDir, 'nosniff.mp4'), { seconds: 1 });
      const jobId = await uploadedJob(stack, account.key, clip);
      const { sourceKey } = await (
        await stackDb(stack)
      ).job.findUniqueOrThrow({ where: { id: jobId } });
      const files = new LocalStorage(path.join(stack.dataDir, 'files'), stack.baseUrl);
      const url = await files.signedUrl(sourceKey!, { method: 'GET' });
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const refused = await fetch(url.replace('sig=', 'sig=x'));
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const r = await raw(method, new URL(url).pathname);
        expect(r.status).toBe(405);
        expect(expectSpecError(r.text, r.headers).error).toBe('Method not allowed');
      }
    },
  );
});

describe('addresses that keep sending bad keys', () => {
  it(
    'are throttled per address: their wrong keys get 429, never the ' +
      "address's good key; other addresses unaffected",
    async () => {
      await roomInWindow(20);
      const from = '127.0.0.3';
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        // A made-up X-Forwarded-For does not give a fresh allowance: the connection's address
        // counts.
        const r = await raw('GET', '/v1/credits', {
          localAddress: from,
          headers: {
            'X-Api-Key': `ko_${String(i).padStart(32, 'z')}`,
            'X-Forwarded-For': `10.9.8.${i}`,
          },
        });
        statuses.push(r.status);
      }
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
      expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
      const throttled = await raw('GET', '/v1/credits', {
        localAddress: from,
        headers: { 'X-Api-Key': 'ko_'.padEnd(35, 'y') },
      });
      expect(throttled.status).toBe(429);
      const body = expectSpecError(throttled.text, throttled.headers);
      expect(body.error).toBe('Rate limit exceeded');
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      // Behind a proxy every client shares one address: a good key from it is still served.
      const good = await raw('GET', '/v1/credits', {
        localAddress: from,
        headers: { 'X-Api-Key': account.key },
      });
      expect(good.status).toBe(200);
      // Another address, with the same valid key, is served.
      const other = await raw('GET', '/v1/credits', {
        localAddress: '127.0.0.4',
        headers: { 'X-Api-Key': account.key },
      });
      expect(other.status).toBe(200);
      // Bad keys from yet another address are still answered 401 until that one's allowance runs
      // out.
      const fresh = await raw('GET', '/v1/credits', {
        localAddress: '127.0.0.5',
        headers: { 'X-Api-Key': 'nope' },
      });
      expect(fresh.status).toBe(401);
    },
  );
});
