import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataColumn } from '../../lib/services/outputs/columns';
import {
  alphaStats,
  api,
  createAccount,
  createJob,
  cutClip,
  freePort,
  hasTestdata,
  putUpload,
  stackDb,
  startStack,
  storedUrlPrefix,
  testVideo,
  waitForJob,
  type Stack,
  type TestAccount,
} from './helpers';

// What an SDK does, end to end, against a real server and a real worker on real footage:
// create → PUT the file (no key) → start at once → poll every 2 s → download the WebM (no key).
describe.skipIf(!hasTestdata)('SDK-style lifecycle (needs ../shared/testdata)', () => {
  let stack: Stack;
  let account: TestAccount;
  let tmp: string;
  let clip: string;
  let receiver: http.Server;
  let hookUrl: string;
  const hooks: {
    event: string;
    headers: http.IncomingHttpHeaders;
    body: Record<string, unknown>;
  }[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-lifecycle-'));
    const port = await freePort();
    receiver = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(data) as Record<string, unknown>;
        hooks.push({ event: String(body.event), headers: req.headers, body });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${port}/hook`;
    [stack, clip] = await Promise.all([
      startStack({ worker: true }),
      cutClip(testVideo('liveportrait_d12_talking_glasses_512.mp4'), path.join(tmp, 'talk.mp4'), 2),
    ]);
    account = await createAccount(stack, 20);
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((r) => receiver?.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(
    'turns an uploaded talking head into a VP9 WebM whose alpha ' + 'varies across the frame',
    async () => {
      const receipt = await createJob(stack, account.key, 'talk.mp4', 'video/mp4');
      const put = await putUpload(receipt, clip);
      expect(put.status).toBe(200);

      const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
        key: account.key,
        body: { format: 'mp4', model: 'service-human', background: null, webhook_url: hookUrl },
      });
      expect(start.status).toBe(200);
      expect(start.body).toMatchObject({
        id: receipt.id,
        status: 'processing',
        creditsUsed: 2,
        webhook_url: hookUrl,
      }); // 0.75 × 2 s

      const done = await waitForJob(stack, account.key, receipt.id, { timeoutMs: 280_000 });
      if (done.status !== 'completed')
        throw new Error(`job failed: ${done.message}\n${stack.logs()}`);
      expect(done).toMatchObject({
        status: 'completed',
        filename: 'talk.mp4',
        background: null,
        output_format: null,
      });
      expect(done.length_seconds).toBeCloseTo(2, 0);

      const videoUrl = String(done.processed_video_url);
      expect(new URL(videoUrl).pathname).toMatch(/\.webm$/);
      for (const u of [
        done.thumbnail_url,
        done.transparent_thumbnail_url,
        done.processed_mask_url,
      ]) {
        expect(String(u).startsWith(storedUrlPrefix(stack)), String(u)).toBe(true);
      }

      const res = await fetch(videoUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/webm');
      const webm = path.join(tmp, 'out.webm');
      fs.writeFileSync(webm, Buffer.from(await res.arrayBuffer()));
      const alpha = await alphaStats(webm);
      expect(alpha.min).toBeLessThan(20); // background removed somewhere
      expect(alpha.max).toBeGreaterThan(235); // the subject kept somewhere
      expect(alpha.mean).toBeGreaterThan(20);
      expect(alpha.mean).toBeLessThan(235);

      const part = await fetch(videoUrl, { headers: { Range: 'bytes=0-99' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 0-99/${fs.statSync(webm).size}`);
      expect((await part.arrayBuffer()).byteLength).toBe(100);

      // Deliveries are recorded and finished before the status reads completed (client-compat).
      const deliveries = await api<{ deliveries: Record<string, unknown>[] }>(
        stack,
        'GET',
        `/v1/webhooks/deliveries?video_id=${receipt.id}`,
        {
          key: account.key,
        },
      );
      const events = deliveries.body.deliveries.map((d) => d.event_type);
      expect(events).toEqual(expect.arrayContaining(['job.started', 'job.completed']));
      for (const d of deliveries.body.deliveries) {
        expect(d).toMatchObject({
          webhook_url: hookUrl,
          delivery_status: 'delivered',
          http_status_code: 200,
        });
      }
      expect(hooks.map((h) => h.event)).toEqual(
        expect.arrayContaining(['job.started', 'job.completed']),
      );

      const credits = await api(stack, 'GET', '/v1/credits', { key: account.key });
      expect(credits.body).toMatchObject({
        total_credits: 20,
        remaining_credits: 18,
        used_credits: 2,
      });
    },
  );
  it(
    'renders additional exports at start, deduplicated, validated, ' + 'before completing',
    async () => {
      const receipt = await createJob(stack, account.key, 'talk.mp4', 'video/mp4');
      expect((await putUpload(receipt, clip)).status).toBe(200);
      const start = await api<{
        batch_id: string;
        total_exports: number;
        exports: { export_id: string; format: string; status: string; transform: unknown }[];
      }>(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
        key: account.key,
        body: {
          model: 'service-human',
          background: { type: 'transparent', transparent_format: 'webm_vp9' },
          // webm_vp9 "native" repeats the primary output and is dropped.
          exports: [
            { format: 'mask_video', sizes: ['native'] },
            { format: 'webm_vp9', sizes: ['native', 256] },
          ],
        },
      });
      expect(start.status).toBe(200);
      expect(start.body).toMatchObject({ total_exports: 3, creditsUsed: 2 });
      expect(start.body.exports.map((e) => [e.format, e.status, e.transform])).toEqual([
        ['mask_video', 'queued', null],
        ['webm_vp9', 'queued', { max_width: 256 }],
      ]);

      const done = await waitForJob(stack, account.key, receipt.id, { timeoutMs: 280_000 });
      if (done.status !== 'completed')
        throw new Error(`job failed: ${done.message}\n${stack.logs()}`);
      const prisma = await stackDb(stack);
      const outputs = await prisma.output.findMany({
        where: { jobId: receipt.id },
        orderBy: { createdAt: 'asc' },
      });
      expect(outputs.map((o) => [o.role, o.format, o.status, o.batchId])).toEqual([
        ['primary', 'webm_vp9', 'completed', start.body.batch_id],
        ['additional', 'mask_video', 'completed', start.body.batch_id],
        ['additional', 'webm_vp9', 'completed', start.body.batch_id],
      ]);
      const small = metadataColumn.read(outputs[2]!.metadataJson!);
      expect(small).toMatchObject({ width: 256, validated: true });
    },
  );

  it('refuses a background URL that cannot be fetched before charging anything', async () => {
    const before = (
      await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key: account.key })
    ).body.remaining_credits;
    const receipt = await createJob(stack, account.key, 'talk.mp4', 'video/mp4');
    expect((await putUpload(receipt, clip)).status).toBe(200);
    // A background URL the server refuses (403): checked at start, so nothing is charged and the
    // job stays uploaded.
    const start = await api<{ error: string; details: string }>(
      stack,
      'POST',
      `/v1/jobs/${receipt.id}/start`,
      {
        key: account.key,
        body: {
          model: 'service-light',
          background: {
            type: 'composition',
            composition: {
              template: 'centered',
              background_url: `${stack.baseUrl}/files/jobs/missing/bg.jpg`,
            },
          },
        },
      },
    );
    expect(start.status).toBe(400);
    expect(start.body).toMatchObject({
      error: expect.stringMatching(/background_url/) as string,
      details: 'The server answered HTTP 403.',
    });
    expect(
      (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key: account.key }))
        .body.remaining_credits,
    ).toBe(before);
    expect(
      (
        await api<{ status: string }>(stack, 'GET', `/v1/jobs/${receipt.id}/status`, {
          key: account.key,
        })
      ).body.status,
    ).toBe('uploaded');
  });
});
