import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLavfi } from '../../lib/media/fixtures';
import {
  api,
  createAccount,
  remainingCredits,
  startComposition,
  startStack,
  syntheticClip,
  uploadedJob,
  waitForJob,
  type Stack,
} from './helpers';
import { listenOnFreePort } from '../support/listen';

/**
 * The worker fetches a composition's background_url itself (safeFetchToFile into the job's own
 * folder) before rendering. The stack allows private URLs, as LAN self-hosting would, so a
 * loopback server can play the image host; one URL answers 404 to show a clear failure + refund.
 */
let png: Buffer;
const requests: string[] = [];
const host = http.createServer((req, res) => {
  requests.push(req.url ?? '');
  // /once.png is there for the check at start and gone when the worker comes to fetch it.
  if (
    req.url === '/bg.png' ||
    (req.url === '/once.png' && requests.filter((u) => u === '/once.png').length === 1)
  ) {
    res.writeHead(200, { 'Content-Type': 'image/png' });
    return res.end(png);
  }
  if (req.url === '/page.html') {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    return res.end('<!doctype html><title>not an image</title>');
  }
  res.writeHead(404).end('gone');
});
const HOST_PORT = await listenOnFreePort(host, '127.0.0.1');

let stack: Stack;
let key: string;
let clip: string;

beforeAll(async () => {
  stack = await startStack({ worker: true });
  const file = path.join(stack.dataDir, 'bg.png');
  await fromLavfi(file, 'color=c=red:s=160x120', ['-frames:v', '1']);
  png = fs.readFileSync(file);
  key = (await createAccount(stack, 100)).key;
  clip = await syntheticClip(path.join(stack.dataDir, 'clip.mp4'), { seconds: 1, size: '160x120' });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => host.close(r));
});

/** A job of the clip started over the background at `backgroundUrl`, centred. */
async function composedJob(backgroundUrl: string): Promise<string> {
  const id = await uploadedJob(stack, key, clip);
  const composition = { template: 'centered', background_url: backgroundUrl };
  const started = await startComposition(stack, key, id, composition);
  expect(started.status, started.text).toBe(200);
  return id;
}

describe('composition backgrounds fetched by the worker', () => {
  it('fetches the background, renders over it, and cleans the working folder', async () => {
    const id = await composedJob(`http://127.0.0.1:${HOST_PORT}/bg.png`);
    const status = await waitForJob(stack, key, id);
    expect(status.status, `${status.message}\n${stack.logs()}`).toBe('completed');
    expect(requests).toContain('/bg.png');
    expect(String(status.processed_video_url)).toMatch(/\.mp4(\?|$)/);
    expect(fs.existsSync(path.join(stack.dataDir, 'work', id))).toBe(false);
  });

  it(
    'refuses a background URL that is missing or not an image or ' +
      'video before anything is charged',
    async () => {
      const before = await remainingCredits(stack, key);
      for (const [url, why] of [
        [`http://127.0.0.1:${HOST_PORT}/missing.png`, /HTTP 404/],
        [
          `http://127.0.0.1:${HOST_PORT}/page.html`,
          /not lead to an image .* or a video .*; it answered with text\/html/,
        ],
      ] as const) {
        const id = await uploadedJob(stack, key, clip);
        const started = await startComposition(stack, key, id, { background_url: url });
        expect(started.status, started.text).toBe(400);
        expect(started.body.error).toMatch(/background_url/);
        expect(started.body.details).toMatch(why);
        const job = await api<{ status: string }>(stack, 'GET', `/v1/jobs/${id}/status`, { key });
        expect(job.body.status).toBe('uploaded');
      }
      expect(await remainingCredits(stack, key)).toBe(before);
    },
  );

  it(
    'fails the job with a clear message and a refund when the ' +
      'background is gone by the time it is fetched',
    async () => {
      const before = await remainingCredits(stack, key);
      const id = await composedJob(`http://127.0.0.1:${HOST_PORT}/once.png`);
      const status = await waitForJob(stack, key, id);
      expect(status.status).toBe('failed');
      expect(status.message).toMatch(
        /background could not be fetched: The server answered HTTP 404/,
      );
      expect(await remainingCredits(stack, key)).toBe(before);
    },
  );
});
