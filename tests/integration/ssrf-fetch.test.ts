import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '../../lib/env';
import {
  FetchError,
  fetchToFile,
  safeFetchToFile,
  UnsafeUrlError,
  type NetPolicy,
} from '../../lib/net/safe-fetch';
import { listenOnFreePort } from '../support/listen';

/**
 * Real sockets on loopback. The "internal" server on 127.0.0.1 stands for anything private; it
 * counts the requests that reach it, and every refusal must leave that count at zero.
 * The redirect cases need a first hop the rules allow: a second server listens on 127.0.0.2 and
 * the tests call fetchToFile with a policy that treats exactly 127.0.0.2 as public (the
 * `treatAsPublic` option exists for this and nothing reads it from the environment).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-ssrf-'));
const dest = path.join(dir, 'out');
let internalHits = 0;
const bomb = zlib.gzipSync(Buffer.alloc(52 * 1024 * 1024));

const internal = http.createServer((_req, res) => {
  internalHits++;
  res.end('secret');
});
const publicish = http.createServer((req, res) => {
  const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
  if (req.url?.startsWith('/redirect') && to) {
    res.writeHead(302, { Location: to });
    return res.end();
  }
  if (req.url === '/bomb') {
    res.writeHead(200, {
      'Content-Encoding': 'gzip',
      'Content-Type': 'video/mp4',
      'Content-Length': bomb.length,
    });
    return res.end(bomb);
  }
  if (req.url === '/hang') return; // never answers
  res.writeHead(200, { 'Content-Type': 'image/png' });
  res.end(Buffer.alloc(1000, 7));
});

const INTERNAL_PORT = await listenOnFreePort(internal, '127.0.0.1');
const PUBLIC_PORT = await listenOnFreePort(publicish, '127.0.0.2');

const testPolicy: NetPolicy = {
  allowPrivate: false,
  requireHttps: false,
  treatAsPublic: ['127.0.0.2'],
};
afterAll(async () => {
  publicish.closeAllConnections();
  await Promise.all([
    new Promise((r) => internal.close(r)),
    new Promise((r) => publicish.close(r)),
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.KEYOUT_ALLOW_PRIVATE_URLS;
  resetEnvForTests();
});
beforeEach(() => {
  internalHits = 0;
  delete process.env.KEYOUT_ALLOW_PRIVATE_URLS;
  resetEnvForTests();
});

const loopbackForms = [
  ['decimal', `http://2130706433:${INTERNAL_PORT}/`],
  ['hex', `http://0x7f000001:${INTERNAL_PORT}/`],
  ['octal', `http://0177.0.0.1:${INTERNAL_PORT}/`],
  ['short', `http://127.1:${INTERNAL_PORT}/`],
  ['IPv6-mapped', `http://[::ffff:127.0.0.1]:${INTERNAL_PORT}/`],
  ['plain', `http://127.0.0.1:${INTERNAL_PORT}/`],
  ['name resolving to loopback', `http://localhost:${INTERNAL_PORT}/`],
] as const;

/**
 * IPv6 forms that carry a loopback or metadata IPv4 address (the URL parser writes them in hex).
 */
const embeddedForms = [
  ['IPv4-compatible', `http://[::127.0.0.1]:${INTERNAL_PORT}/`],
  ['IPv4-compatible metadata', 'http://[::a9fe:a9fe]/latest/meta-data/'],
  ['not global unicast', `http://[::ffff:ffff:7f00:1]:${INTERNAL_PORT}/`],
  ['SIIT', `http://[::ffff:0:7f00:1]:${INTERNAL_PORT}/`],
  ['NAT64', `http://[64:ff9b::7f00:1]:${INTERNAL_PORT}/`],
  ['6to4', `http://[2002:7f00:1::1]:${INTERNAL_PORT}/`],
  ['Teredo', `http://[2001:0:808:808::80ff:fffe]:${INTERNAL_PORT}/`],
] as const;

describe('safeFetchToFile with KEYOUT_ALLOW_PRIVATE_URLS unset', () => {
  it.each([...loopbackForms, ...embeddedForms])(
    'refuses the %s form and never connects',
    async (_form, url) => {
      await expect(safeFetchToFile(url, dest, { maxBytes: 1e6 })).rejects.toThrow(UnsafeUrlError);
      expect(internalHits).toBe(0);
      expect(fs.existsSync(dest)).toBe(false);
    },
  );

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[::a9fe:a9fe]/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
  ])('refuses the cloud metadata address %s even when private URLs are allowed', async (url) => {
    process.env.KEYOUT_ALLOW_PRIVATE_URLS = '1';
    resetEnvForTests();
    await expect(safeFetchToFile(url, dest, { maxBytes: 1e6 })).rejects.toThrow(
      /cloud metadata address/,
    );
  });

  it(
    'the same URLs do reach the internal server when private URLs ' + 'are allowed (control)',
    async () => {
      process.env.KEYOUT_ALLOW_PRIVATE_URLS = '1';
      resetEnvForTests();
      for (const [, url] of loopbackForms) {
        await expect(safeFetchToFile(url, dest, { maxBytes: 1e6 })).resolves.toMatchObject({
          bytes: 6,
        });
      }
      expect(internalHits).toBe(loopbackForms.length);
    },
  );
});

describe('redirects are checked on every hop', () => {
  it('downloads from the allowed host (control)', async () => {
    const r = await fetchToFile(
      `http://127.0.0.2:${PUBLIC_PORT}/bg.png`,
      dest,
      { maxBytes: 1e6 },
      testPolicy,
    );
    expect(r).toEqual({ bytes: 1000, contentType: 'image/png' });
  });

  it.each([
    `http://127.0.0.1:${INTERNAL_PORT}/admin`,
    `http://2130706433:${INTERNAL_PORT}/admin`,
    `http://[::ffff:7f00:1]:${INTERNAL_PORT}/admin`,
    `http://localhost:${INTERNAL_PORT}/admin`,
    `http://169.254.169.254/latest/meta-data/`,
    'file:///etc/passwd',
  ])('refuses a redirect from the allowed host to %s', async (target) => {
    const url = `http://127.0.0.2:${PUBLIC_PORT}/redirect?to=${encodeURIComponent(target)}`;
    await expect(fetchToFile(url, dest, { maxBytes: 1e6 }, testPolicy)).rejects.toThrow(
      UnsafeUrlError,
    );
    expect(internalHits).toBe(0);
  });

  it('refuses a redirect to plain http when HTTPS is required', async () => {
    const url =
      'http://127.0.0.2:' +
      `${PUBLIC_PORT}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${PUBLIC_PORT}/x`)}`;
    await expect(
      fetchToFile(url, dest, { maxBytes: 1e6 }, { ...testPolicy, requireHttps: true }),
    ).rejects.toThrow(/HTTPS/);
  });
});

describe('limits', () => {
  it('caps the decoded bytes of a gzip bomb (a small body that inflates to 52 MB)', async () => {
    const started = process.memoryUsage().rss;
    await expect(
      fetchToFile(
        `http://127.0.0.2:${PUBLIC_PORT}/bomb`,
        dest,
        { maxBytes: 5 * 1024 * 1024 },
        testPolicy,
      ),
    ).rejects.toThrow(/larger than the limit/);
    expect(fs.existsSync(dest)).toBe(false);
    expect(process.memoryUsage().rss - started).toBeLessThan(200 * 1024 * 1024);
  });

  it('gives up on a server that never answers', async () => {
    const err = await fetchToFile(
      `http://127.0.0.2:${PUBLIC_PORT}/hang`,
      dest,
      { maxBytes: 1e6, timeoutMs: 500 },
      testPolicy,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as FetchError).transient).toBe(true);
  });
});
