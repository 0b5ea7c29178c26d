import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import {
  api,
  createAccount,
  createJob,
  freePort,
  type Stack,
  stackDb,
  startStack,
  syntheticClip,
  talkingOrSynthetic,
  uploadedJob,
  waitFor,
  waitForJob,
} from './helpers';
import { readProgress } from '../../lib/services/jobs/progress';

/**
 * Nothing of a job outlives it: deleting a job the worker is processing stops the worker and
 * leaves no file, row or webhook behind; an upload whose web process was killed leaves no file
 * once the server is back.
 */
let stack: Stack;
let prisma: Db;
let key: string;
let clip: string;
let hookUrl: string;
const hooks: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    hooks.push(String((JSON.parse(body) as { event: string }).event));
    res.end('{}');
  });
});

beforeAll(async () => {
  const port = await freePort();
  await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${port}/hook`;
  stack = await startStack({ worker: true });
  prisma = await stackDb(stack);
  key = (await createAccount(stack, 1000)).key;
  const dest = path.join(stack.dataDir, 'clip.mp4');
  // Long enough to still be processing when it is deleted.
  clip = await talkingOrSynthetic(dest, 6);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await stack?.stop();
  await new Promise((r) => receiver.close(r));
});

const jobFiles = (id: string) => path.join(stack.dataDir, 'files', 'jobs', id);
// The segmentation's scratch folder (lib/storage/scratch.ts via segment-job).
const workDir = (id: string) => path.join(stack.dataDir, 'work', `segment-${id}`);

describe('deleting a job while the worker processes it', () => {
  it(
    'stops the worker, which writes nothing more, and every file ' + 'and row of the job goes',
    async () => {
      const jobId = await uploadedJob(stack, key, clip);
      const start = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
        key,
        body: { model: 'service-original', webhook_url: hookUrl },
      });
      expect(start.status, start.text).toBe(200);
      await waitFor(
        async () => {
          const job = await prisma.job.findUniqueOrThrow({ where: { id: jobId } });
          const p = readProgress(job);
          return p?.stage === 'segment' && (p.framesDone ?? 0) >= 1 ? true : undefined;
        },
        { timeoutMs: 180_000, intervalMs: 100, what: 'the worker to be segmenting' },
      );
      expect(fs.existsSync(workDir(jobId))).toBe(true);

      const deleted = await api(stack, 'DELETE', `/v1/jobs/${jobId}`, { key });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: jobId, message: 'Job deleted' });

      // The abort is seen between frames; on a loaded host a frame of the niced worker can take
      // long.
      await waitFor(
        () => Promise.resolve(/stopped: its row was cancelled/.test(stack.logs()) || undefined),
        {
          timeoutMs: 180_000,
          what: 'the worker to stop the deleted job',
        },
      );
      // Whatever the worker still had in flight lands nowhere.
      for (let i = 0; i < 20; i++) {
        expect(fs.existsSync(jobFiles(jobId)), 'job files reappeared').toBe(false);
        await new Promise((r) => setTimeout(r, 150));
      }
      await waitFor(() => Promise.resolve(fs.existsSync(workDir(jobId)) ? undefined : true), {
        timeoutMs: 10_000,
        what: 'the work folder to go',
      });
      expect(await prisma.job.count({ where: { id: jobId } })).toBe(0);
      expect(await prisma.output.count({ where: { jobId } })).toBe(0);
      expect(await prisma.maskVersion.count({ where: { jobId } })).toBe(0);
      expect(await prisma.webhookDelivery.count({ where: { jobId } })).toBe(0);
      expect(await prisma.queueJob.count({ where: { payloadJson: { contains: jobId } } })).toBe(0);
      expect(hooks.filter((e) => e !== 'job.started')).toEqual([]);
      // The ledger keeps its history: one debit, no refund (deletion is not refunded).
      expect((await prisma.creditEntry.findMany({ where: { jobId } })).map((e) => e.kind)).toEqual([
        'debit',
      ]);
      expect((await api(stack, 'GET', `/v1/jobs/${jobId}/status`, { key })).status).toBe(404);

      // The worker is free and well: the next job completes.
      const next = await uploadedJob(
        stack,
        key,
        await syntheticClip(path.join(stack.dataDir, 'next.mp4'), { seconds: 1 }),
      );
      expect(
        (
          await api(stack, 'POST', `/v1/jobs/${next}/start`, {
            key,
            body: { model: 'service-human' },
          })
        ).status,
      ).toBe(200);
      expect((await waitForJob(stack, key, next)).status).toBe('completed');
    },
    600_000,
  );
});

describe('an upload whose web process is killed', () => {
  it('leaves no incoming file once the server is back', async () => {
    const receipt = await createJob(stack, key);
    const url = new URL(receipt.upload_url);
    const put = http.request({
      host: url.hostname,
      port: url.port,
      method: 'PUT',
      path: url.pathname + url.search,
      headers: { 'Content-Type': 'video/mp4', 'Content-Length': 64 * 1024 * 1024 },
    });
    put.on('error', () => undefined); // the server dies under it
    put.write(Buffer.alloc(4 * 1024 * 1024, 7));
    const tmp = path.join(stack.dataDir, 'tmp');
    const incoming = await waitFor(
      () =>
        Promise.resolve(
          fs.existsSync(tmp)
            ? fs
                .readdirSync(tmp)
                .find((f) => f.startsWith(receipt.id) && fs.statSync(path.join(tmp, f)).size > 0)
            : undefined,
        ),
      { what: 'the upload to be streaming to disk' },
    );
    await stack.restartWeb();
    put.destroy();
    // The whole log, not the tail: the sweep deletes the file before its line crosses the web
    // process's stdout pipe, and the tail keeps only the last 20,000 characters.
    const line = `removed 1 abandoned upload file(s): ${incoming}`;
    const logged = () =>
      fs.readFileSync(path.join(stack.dataDir, 'stack.log'), 'utf8').includes(line);
    await waitFor(() => Promise.resolve(logged() ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the sweep',
    });
    expect(fs.existsSync(path.join(tmp, incoming))).toBe(false);
    expect((await api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key })).body.status).toBe(
      'created',
    );
  });
});
