import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createAccount,
  type Stack,
  startStack,
  syntheticClip,
  uploadedJob,
  waitFor,
  waitForJob,
} from './helpers';
import { listenOnFreePort } from '../support/listen';

/**
 * The API and the worker in process (the in-process tier), a real receiver (node:http on loopback;
 * the stack runs with KEYOUT_ALLOW_PRIVATE_URLS=1 as client test suites do). /flaky answers 500
 * to the first two job.started deliveries; /ok always answers 200. Retries use the real 10 s
 * spacing.
 */
// A 1 s clip took 141 s at load 16 (model load, two 10 s retries) and over 240 s at load 22.
const LOADED_HOST_MS = 480_000;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}
const received: Received[] = [];
let flakyStartedFailures = 0;

const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    received.push({ path: req.url ?? '', headers: req.headers, body });
    if (req.url === '/flaky' && body.event === 'job.started' && flakyStartedFailures < 2) {
      flakyStartedFailures++;
      res.writeHead(500).end('not yet');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
});
const RECEIVER_PORT = await listenOnFreePort(receiver, '127.0.0.1');

let stack: Stack;
let key: string;
let clip: string;

beforeAll(async () => {
  stack = await startStack({ worker: true });
  key = (await createAccount(stack, 100)).key;
  clip = await syntheticClip(path.join(stack.dataDir, 'clip.mp4'), { seconds: 1, size: '160x120' });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => receiver.close(r));
});

async function startWithWebhook(webhookUrl: string): Promise<string> {
  const id = await uploadedJob(stack, key, clip);
  const started = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
    key,
    body: { format: 'mp4', model: 'service-light', webhook_url: webhookUrl },
  });
  expect(started.status, started.text).toBe(200);
  expect(started.body).toMatchObject({ status: 'processing', webhook_url: webhookUrl });
  return id;
}

interface Delivery {
  event_type: string;
  webhook_url: string;
  attempt_number: number;
  delivery_status: string;
  http_status_code: number | null;
  error_message: string | null;
  scheduled_at: string;
  delivered_at: string | null;
  payload: Record<string, unknown>;
}
const history = async (jobId: string) => {
  const r = await api<{ video_id: string; total_deliveries: number; deliveries: Delivery[] }>(
    stack,
    'GET',
    `/v1/webhooks/deliveries?video_id=${jobId}`,
    { key },
  );
  expect(r.status, r.text).toBe(200);
  return r.body;
};

describe('webhooks', () => {
  it(
    'records every attempt, retries a failing receiver 10 s apart, ' +
      'and finishes job.completed before "completed"',
    async () => {
      const okUrl = `http://127.0.0.1:${RECEIVER_PORT}/ok`;
      const flakyUrl = `http://127.0.0.1:${RECEIVER_PORT}/flaky`;
      const [okJob, flakyJob] = [await startWithWebhook(okUrl), await startWithWebhook(flakyUrl)];

      // What SDK test suites check the moment the status reads completed.
      const status = await waitForJob(stack, key, okJob, { timeoutMs: LOADED_HOST_MS });
      expect(status.status, `${status.message}\n${stack.logs()}`).toBe('completed');
      const okHistory = await history(okJob);
      expect(okHistory.video_id).toBe(okJob);
      for (const event of ['job.started', 'job.completed']) {
        expect(okHistory.deliveries.find((d) => d.event_type === event)).toMatchObject({
          webhook_url: okUrl,
          delivery_status: 'delivered',
          http_status_code: 200,
          attempt_number: 1,
        });
      }
      expect(okHistory.total_deliveries).toBe(2);

      expect((await waitForJob(stack, key, flakyJob, { timeoutMs: LOADED_HOST_MS })).status).toBe(
        'completed',
      );
      const flaky = await waitFor(
        async () => {
          const h = await history(flakyJob);
          return h.deliveries.some(
            (d) => d.event_type === 'job.started' && d.delivery_status === 'delivered',
          )
            ? h
            : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 1_000, what: 'the third job.started attempt' },
      );
      const started = flaky.deliveries.filter((d) => d.event_type === 'job.started');
      expect(started.map((d) => [d.attempt_number, d.delivery_status, d.http_status_code])).toEqual(
        [
          [1, 'failed', 500],
          [2, 'failed', 500],
          [3, 'delivered', 200],
        ],
      );
      expect(started[0]!.error_message).toMatch(/HTTP 500/);
      for (let i = 1; i < started.length; i++) {
        const gap = Date.parse(started[i]!.scheduled_at) - Date.parse(started[i - 1]!.scheduled_at);
        expect(gap).toBeGreaterThanOrEqual(10_000);
        expect(started[i]!.payload).toEqual(started[0]!.payload);
      }
      expect(flaky.deliveries.find((d) => d.event_type === 'job.completed')).toMatchObject({
        delivery_status: 'delivered',
        webhook_url: flakyUrl,
      });

      // What the receiver saw: the spec's headers and payloads, the attempt number counting up.
      const flakyStarted = received.filter(
        (r) => r.path === '/flaky' && r.body.event === 'job.started',
      );
      expect(flakyStarted.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3']);
      for (const r of received) {
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['user-agent']).toBe('Service-Webhooks/1.0');
        expect(r.headers['x-service-event']).toBe(r.body.event);
        expect(Number.isNaN(Date.parse(String(r.headers['x-service-timestamp'])))).toBe(false);
        expect([okJob, flakyJob]).toContain(r.headers['x-service-job-id']);
      }
      const completed = received.find((r) => r.path === '/ok' && r.body.event === 'job.completed')!;
      expect(completed.body).toMatchObject({
        event: 'job.completed',
        job: {
          id: okJob,
          status: 'completed',
          filename: 'clip.mp4',
          output_format: 'webm_vp9',
          background: null,
        },
      });
      const job = completed.body.job as Record<string, unknown>;
      // export_id agrees with the status record: only calls made with a background have one.
      expect(job.export_id).toBeNull();
      expect(status.export_id).toBeNull();
      expect(job.length_seconds).toBeCloseTo(1, 1);
      expect(Date.parse(String(completed.body.timestamp))).not.toBeNaN();
      const startedBody = received.find(
        (r) => r.path === '/ok' && r.body.event === 'job.started',
      )!.body;
      expect(startedBody.job).toEqual({
        id: okJob,
        status: 'processing',
        filename: 'clip.mp4',
        created_at: expect.any(String) as string,
      });
    },
    2 * LOADED_HOST_MS,
  );
});
