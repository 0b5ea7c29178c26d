import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '../support/listen';
import { api, createAccount, startStack, syntheticClip, type Stack } from './helpers';

/**
 * The same address rules at the API edge, with KEYOUT_ALLOW_PRIVATE_URLS unset: a start whose
 * webhook_url or composition background_url reaches loopback in any spelling is refused, and the
 * internal server behind them never sees a request.
 */
let hits = 0;
const internal = http.createServer((_req, res) => {
  hits++;
  res.end('secret');
});
const INTERNAL_PORT = await listenOnFreePort(internal, '127.0.0.1');

let stack: Stack;
let key: string;
let jobId: string;

beforeAll(async () => {
  stack = await startStack({ env: { KEYOUT_ALLOW_PRIVATE_URLS: '0' } });
  key = (await createAccount(stack, 100)).key;
  const clip = await syntheticClip(path.join(stack.dataDir, 'clip.mp4'), {
    seconds: 1,
    size: '160x120',
  });
  const created = await api<{
    id: string;
    upload_url: string;
    instructions: { headers: Record<string, string> };
  }>(stack, 'POST', '/v1/jobs', { key, body: { filename: 'clip.mp4', content_type: 'video/mp4' } });
  expect(created.status, created.text).toBe(200);
  jobId = created.body.id;
  const put = await fetch(created.body.upload_url, {
    method: 'PUT',
    headers: created.body.instructions.headers,
    body: fs.readFileSync(clip),
  });
  expect(put.status, await put.text()).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => internal.close(r));
});

const forms = [
  ['decimal', `http://2130706433:${INTERNAL_PORT}/x`],
  ['hex', `http://0x7f000001:${INTERNAL_PORT}/x`],
  ['octal', `http://0177.0.0.1:${INTERNAL_PORT}/x`],
  ['short', `http://127.1:${INTERNAL_PORT}/x`],
  ['IPv6-mapped', `http://[::ffff:127.0.0.1]:${INTERNAL_PORT}/x`],
  ['localhost', `http://localhost:${INTERNAL_PORT}/x`],
  ['metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['IPv4-compatible', `http://[::127.0.0.1]:${INTERNAL_PORT}/x`],
  ['IPv4-compatible metadata', 'http://[::a9fe:a9fe]/latest/meta-data/'],
  ['non-global IPv6', `http://[::ffff:ffff:7f00:1]:${INTERNAL_PORT}/x`],
  ['NAT64', `http://[64:ff9b::7f00:1]:${INTERNAL_PORT}/x`],
  ['6to4', `http://[2002:7f00:1::1]:${INTERNAL_PORT}/x`],
  ['Teredo', `http://[2001:0:808:808::80ff:fffe]:${INTERNAL_PORT}/x`],
] as const;

describe('start refuses private URLs when KEYOUT_ALLOW_PRIVATE_URLS is unset', () => {
  it.each(forms)('webhook_url in %s form', async (_form, url) => {
    const r = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
      key,
      body: { model: 'service-light', webhook_url: url },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ error: expect.stringMatching(/webhook_url/) as string });
  });

  it.each(forms)('composition background_url in %s form', async (_form, url) => {
    const r = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
      key,
      body: {
        model: 'service-light',
        background: { type: 'composition', composition: { background_url: url } },
      },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ error: expect.stringMatching(/background_url/) as string });
  });

  it.each(forms)('video_url in %s form', async (_form, url) => {
    const r = await api(stack, 'POST', '/v1/jobs', { key, body: { video_url: url } });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({
      error: expect.stringMatching(/^video_url is not allowed: /) as string,
    });
  });

  it('reached nothing and charged nothing', async () => {
    expect(hits).toBe(0);
    const credits = await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key });
    expect(credits.body.remaining_credits).toBe(100);
    const status = await api<{ status: string }>(stack, 'GET', `/v1/jobs/${jobId}/status`, { key });
    expect(status.body.status).toBe('uploaded');
  });
});
