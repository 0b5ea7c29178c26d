import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { resetEnvForTests } from '../../lib/env';
import { HUGE_FRAME, TINY_TEN_HOURS } from '../../lib/media/fixtures';
import { enqueue, transact } from '../../lib/queue';
import { createOutput } from '../../lib/services/outputs/create';
import { defaultPorts } from '../../lib/services/ports';
import { storage, storageKeys } from '../../lib/storage';
import { startStack, syntheticClip, waitFor, type Stack } from './helpers';
import { listenOnFreePort } from '../support/listen';

/**
 * Hostile uploads reach the real worker as job sources (planted straight into storage and the
 * database, as if an upload check had missed them) and must fail their own job with a clear
 * message and a refund, without reading any other file and without taking the worker down:
 * a normal job queued behind them still completes.
 */
let stack: Stack;
let dir: string;
let userId: string;
const hooks: Record<string, unknown>[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    hooks.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>);
    res.writeHead(200).end('{}');
  });
});
const RECEIVER_PORT = await listenOnFreePort(receiver, '127.0.0.1');

beforeAll(async () => {
  stack = await startStack({ worker: true });
  Object.assign(process.env, stack.env);
  resetEnvForTests();
  dir = fs.mkdtempSync(path.join(stack.dataDir, 'fixtures-'));
  userId = (await db().user.create({ data: { email: `media-${randomUUID()}@example.com` } })).id;
});
afterAll(async () => {
  await db().$disconnect();
  await stack?.stop();
  await new Promise((r) => receiver.close(r));
});

function make(name: string, args: string[]): string {
  const out = path.join(dir, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

/** A job in `processing`, charged 1 credit, with `file` as its source and its queue row. */
async function plantJob(file: string, webhookUrl: string | null = null): Promise<string> {
  const id = randomUUID();
  const key = storageKeys.source(id, 'test', 'mp4');
  // The row first: storage refuses a job's files once (or before) its row exists
  // (lib/storage/job-guard.ts).
  await transact(defaultPorts, async (tx) => {
    await tx.job.create({
      data: {
        id,
        userId,
        status: 'processing',
        filename: path.basename(file),
        contentType: 'video/mp4',
        sourceKey: key,
        model: 'service-light',
        outputFormat: 'webm_vp9',
        creditsUsed: 1,
        webhookUrl,
        startedAt: new Date(),
      },
    });
    await tx.creditEntry.create({
      data: { userId, kind: 'debit', amount: -1, jobId: id, idempotencyKey: `debit:${id}` },
    });
    await createOutput(tx, {
      jobId: id,
      role: 'primary',
      recipe: { kind: 'transparent', format: 'webm_vp9' },
    });
  });
  await storage().putFile(key, file);
  await transact(defaultPorts, (tx) => enqueue(tx, 'segment-video', { jobId: id }));
  return id;
}

const finished = (id: string) =>
  waitFor(
    async () => {
      const job = await db().job.findUniqueOrThrow({ where: { id } });
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    },
    { timeoutMs: 240_000, what: `job ${id}` },
  );

describe('the worker and hostile media', () => {
  it(
    'fails each disguised or lying file with a clear message and a ' + 'refund, then keeps working',
    async () => {
      // A real video the playlist and concat list point at: if ffmpeg followed them, it would
      // succeed.
      const secret = make('secret.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=s=64x64:d=1',
        '-pix_fmt',
        'yuv420p',
      ]);
      const hls = path.join(dir, 'playlist.mp4');
      fs.writeFileSync(
        hls,
        `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
      );
      const concat = path.join(dir, 'concat.mp4');
      fs.writeFileSync(concat, `ffconcat version 1.0\nfile '${secret}'\n`);
      const tenHours = make('long.mkv', TINY_TEN_HOURS);
      const huge = make('huge.mp4', HUGE_FRAME);
      const text = path.join(dir, 'notes.mp4');
      fs.writeFileSync(text, 'hello, this is not a video');

      const cases: [string, RegExp][] = [
        [hls, /not a supported video/],
        [concat, /not a supported video/],
        [tenHours, /limit is \d+ s/],
        [huge, /8192x8192.*pixels per frame/],
        [text, /not a supported video/],
      ];
      const ids: string[] = [];
      const hook = `http://127.0.0.1:${RECEIVER_PORT}/hook`;
      for (const [i, [file]] of cases.entries())
        ids.push(await plantJob(file, i === 0 ? hook : null));
      const good = await plantJob(
        await syntheticClip(path.join(dir, 'good.mp4'), { seconds: 1, size: '160x120' }),
      );

      for (const [i, [file, message]] of cases.entries()) {
        const job = await finished(ids[i]!);
        expect(job.status, `${path.basename(file)}: ${job.message}`).toBe('failed');
        expect(job.message).toMatch(message);
        const refund = await db().creditEntry.findUnique({
          where: { idempotencyKey: `refund:${job.id}` },
        });
        expect(refund?.amount).toBe(1);
        const output = await db().output.findFirstOrThrow({ where: { jobId: job.id } });
        expect(output).toMatchObject({ status: 'failed', storageKey: null });
        expect(fs.existsSync(path.join(stack.dataDir, 'work', job.id))).toBe(false);
      }

      // The failure is announced with the same message.
      const failedJob = await db().job.findUniqueOrThrow({ where: { id: ids[0]! } });
      const delivery = await waitFor(
        () =>
          db()
            .webhookDelivery.findFirst({
              where: { jobId: ids[0]!, eventType: 'job.failed', deliveryStatus: 'delivered' },
            })
            .then((d) => d ?? undefined),
        { what: 'the job.failed delivery' },
      );
      expect(delivery.httpStatusCode).toBe(200);
      expect(hooks).toContainEqual({
        event: 'job.failed',
        timestamp: expect.any(String) as string,
        job: { id: ids[0], status: 'failed', filename: 'playlist.mp4', message: failedJob.message },
      });

      const ok = await finished(good);
      expect(ok.status, `${ok.message}\n${stack.logs()}`).toBe('completed');
      expect(await db().creditEntry.count({ where: { jobId: good, kind: 'refund' } })).toBe(0);
      expect(stack.logs()).not.toMatch(/refusing to start|unhandled/);
    },
  );
});
