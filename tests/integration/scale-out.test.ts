import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceJob } from '../../lib/billing/pricing';
import {
  api,
  createAccount,
  createJob,
  putUpload,
  type Receipt,
  type Stack,
  stackDb,
  stackKind,
  startStack,
  storedKeys,
  syntheticClip,
  talkingOrSynthetic,
  type TestAccount,
  waitFor,
  waitForJob,
} from './helpers';
import { readProgress } from '../../lib/services/jobs/progress';
import { decodedFrames } from '../support/counted-probe';
import { stillFrame } from '../support/still-frame';

/**
 * The scale-out stack as it runs on several machines: two web processes and two workers that
 * share nothing but PostgreSQL, BullMQ on Redis and an S3 bucket (OpenStack Swift + s3api).
 * Runs in `npm run test:scale` (a step of `npm test`, so CI's second stack), which starts those
 * services once.
 */
const unavailable =
  stackKind() === 'scale'
    ? null
    : 'they run on the scale-out stack (scripts/test-scale.ts, a step of npm test)';
if (unavailable) console.warn(`Skipping the scale-out tests: ${unavailable}`);

const CAP = 4 * 1024 * 1024;

describe.skipIf(unavailable)(
  'scale-out: 2 web processes, 2 workers, PostgreSQL, BullMQ, S3',
  () => {
    let stack: Stack;
    let account: TestAccount;
    let tmp: string;
    let talk: string;
    let short: string;

    beforeAll(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-scale-'));
      [stack, talk, short] = await Promise.all([
        startStack({
          scale: true,
          webs: 2,
          workers: 2,
          env: {
            STARTS_PER_MINUTE: '1000',
            RATE_LIMIT_PER_MINUTE: '100000',
            MAX_UPLOAD_BYTES: String(CAP),
          },
        }),
        talkingOrSynthetic(path.join(tmp, 'talk.mp4'), 4),
        syntheticClip(path.join(tmp, 'short.mp4'), { seconds: 1, size: '160x120' }),
      ]);
      account = await createAccount(stack, 1000);
    }, 600_000);
    afterAll(async () => {
      await stack?.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it(
      'runs the whole lifecycle across processes: created on web 1, ' +
        'uploaded to S3, started on web 2, polled on either, downloaded ' +
        'from S3',
      async () => {
        const receipt = await createJob(stack, account.key, 'talk.mp4');
        expect(new URL(receipt.upload_url).origin).toBe(new URL(stack.env.S3_ENDPOINT!).origin);
        expect((await putUpload(receipt, talk)).status).toBe(200);
        const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
          key: account.key,
          web: 1,
          body: { model: 'service-human' },
        });
        expect(start.status, start.text).toBe(200);
        expect(start.body).toMatchObject({ status: 'processing', creditsUsed: 3 });
        const seen = await Promise.all(
          [0, 1].map((web) =>
            api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key: account.key, web }),
          ),
        );
        for (const r of seen) expect(r.body.status).toMatch(/processing|completed/);

        const done = await waitForJob(stack, account.key, receipt.id, { timeoutMs: 280_000 });
        expect(done.status, `${done.message}\n${stack.logs()}`).toBe('completed');
        const other = await api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, {
          key: account.key,
          web: 1,
        });
        expect(other.body).toMatchObject({ status: 'completed' });
        const url = String(done.processed_video_url);
        expect(new URL(url).origin).toBe(new URL(stack.env.S3_ENDPOINT!).origin);
        expect(new URL(url).pathname).toMatch(/\.webm$/);
        const full = await fetch(url);
        expect(full.status).toBe(200);
        expect(full.headers.get('content-type')).toBe('video/webm');
        const bytes = Buffer.from(await full.arrayBuffer());
        const part = await fetch(url, { headers: { Range: 'bytes=0-99' } });
        expect(part.status).toBe(206);
        expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
        expect(await storedKeys(stack, receipt.id)).toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^jobs/${receipt.id}/source-[0-9a-f]{8}\\.mp4$`)),
            `jobs/${receipt.id}/mask-v1.mkv`,
          ]),
        );
      },
    );

    it(
      'hands a job whose worker is SIGKILLed mid-segmentation to the ' +
        'other worker: completed, charged once',
      { timeout: 600_000 },
      async () => {
        const receipt = await createJob(stack, account.key, 'talk.mp4');
        await putUpload(receipt, talk);
        const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
          key: account.key,
          body: { model: 'service-light' },
        });
        expect(start.status, start.text).toBe(200);
        const prisma = await stackDb(stack);
        // The worker that logged the start of this job's segmentation, once it has frames done.
        const startedBy = (attempt: number) =>
          new RegExp(
            '\\[worker (\\d)\\] \\[worker\\] segment-video \\S+ \\(attempt ' +
              `${attempt}/3\\): started, jobId ${receipt.id}`,
          );
        const holder = await waitFor(
          async () => {
            const job = await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } });
            const progress = readProgress(job);
            if (progress?.stage !== 'segment' || (progress.framesDone ?? 0) < 1) return undefined;
            const line = startedBy(1).exec(stack.logs());
            return line ? Number(line[1]) - 1 : undefined;
          },
          { timeoutMs: 180_000, intervalMs: 100, what: 'a worker to be segmenting' },
        );
        const victim = stack.workerPids()[holder]!;
        process.kill(-victim, 'SIGKILL');
        await waitFor(async () =>
          (await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } })).status ===
          'processing'
            ? true
            : undefined,
        );

        // The other worker takes it over, as its second attempt, once the lease lapses.
        const taker = await waitFor(() => Promise.resolve(startedBy(2).exec(stack.logs())?.[1]), {
          timeoutMs: 300_000,
          what: 'a second attempt',
        });
        expect(Number(taker) - 1).toBe(1 - holder);
        const done = await waitForJob(stack, account.key, receipt.id, { timeoutMs: 400_000 });
        expect(done.status, `${done.message}\n${stack.logs()}`).toBe('completed');
        const entries = await prisma.creditEntry.findMany({ where: { jobId: receipt.id } });
        expect(entries.map((e) => e.kind)).toEqual(['debit']);
        expect(await prisma.maskVersion.count({ where: { jobId: receipt.id } })).toBe(1);
        stack.startWorker();
      },
    );

    it(
      'starts exactly 10 of 50 concurrent starts, spread over both ' +
        'web processes, on an account with credit for 10',
      { timeout: 900_000 },
      async () => {
        const price = priceJob({ model: 'service-light', durationSeconds: 1, fps: 25 });
        const poor = await createAccount(stack, 10 * price);
        // Uploaded ten at a time (each is probed through S3 when settled); the starts race all at
        // once.
        const ids: string[] = [];
        for (let i = 0; i < 50; i += 10) {
          ids.push(
            ...(await Promise.all(
              Array.from({ length: 10 }, async () => {
                const receipt = await createJob(stack, poor.key, 'short.mp4');
                expect((await putUpload(receipt, short)).status).toBe(200);
                return receipt.id;
              }),
            )),
          );
        }
        const starts = await Promise.all(
          ids.map((id, i) =>
            api(stack, 'POST', `/v1/jobs/${id}/start`, {
              key: poor.key,
              web: i % 2,
              body: { model: 'service-light' },
            }),
          ),
        );
        const codes = starts.map((r) => r.status);
        expect(
          codes.filter((c) => c === 200),
          starts.map((r) => r.text).join('\n'),
        ).toHaveLength(10);
        expect(
          codes.filter((c) => c === 402),
          starts
            .filter((r) => r.status !== 200 && r.status !== 402)
            .map((r) => `${r.status} ${r.text}`)
            .join('\n'),
        ).toHaveLength(40);
        const prisma = await stackDb(stack);
        const debits = await prisma.creditEntry.findMany({
          where: { jobId: { in: ids }, kind: 'debit' },
        });
        expect(debits).toHaveLength(10);
        const credits = await api(stack, 'GET', '/v1/credits', { key: poor.key, web: 1 });
        expect(credits.body).toMatchObject({ remaining_credits: 0 });
        // The ten are deleted while queued or running: each is cancelled on the worker that holds
        // it, which writes nothing more to the bucket, and the workers are free for the next test.
        const started = ids.filter((_, i) => codes[i] === 200);
        for (const [i, id] of started.entries())
          expect(
            (await api(stack, 'DELETE', `/v1/jobs/${id}`, { key: poor.key, web: i % 2 })).status,
          ).toBe(200);
        for (const id of started)
          await waitFor(
            async () => ((await storedKeys(stack, id)).length === 0 ? true : undefined),
            { timeoutMs: 120_000, what: `job ${id}'s objects to go` },
          );
        expect(await prisma.job.count({ where: { id: { in: started } } })).toBe(0);
      },
    );

    it(
      "waits for the account's row lock when another charge holds it " +
        "past Prisma's default transaction timeout: 200, charged once",
      async () => {
        const receipt = await createJob(stack, account.key, 'short.mp4');
        expect((await putUpload(receipt, short)).status).toBe(200);
        // Settled first, so only the charge waits.
        expect(
          (await api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key: account.key })).body
            .status,
        ).toBe('uploaded');
        const other = new pg.Client({ connectionString: stack.env.DATABASE_URL });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query(
            'SELECT id FROM "User" WHERE id = (SELECT "userId" FROM "Job" ' +
              'WHERE id = $1) FOR UPDATE',
            [receipt.id],
          );
          const start = api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
            key: account.key,
            web: 1,
            body: { model: 'service-light' },
          });
          await new Promise((r) => setTimeout(r, 7_000));
          await other.query('COMMIT');
          const answer = await start;
          expect(answer.status, answer.text).toBe(200);
        } finally {
          await other.end();
        }
        const prisma = await stackDb(stack);
        expect(
          await prisma.creditEntry.count({ where: { jobId: receipt.id, kind: 'debit' } }),
        ).toBe(1);
        expect(
          (await waitForJob(stack, account.key, receipt.id, { timeoutMs: 400_000 })).status,
        ).toBe('completed');
      },
    );

    it('leaves no object of a deleted job in the bucket', async () => {
      const receipt = await createJob(stack, account.key, 'short.mp4');
      await putUpload(receipt, short);
      const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
        key: account.key,
        body: {
          model: 'service-human',
          exports: [{ format: 'gif', sizes: [64] }],
          background: { type: 'transparent', transparent_format: 'webm_vp9' },
        },
      });
      expect(start.status, start.text).toBe(200);
      expect((await waitForJob(stack, account.key, receipt.id)).status).toBe('completed');
      expect((await storedKeys(stack, receipt.id)).length).toBeGreaterThan(4);
      const del = await api(stack, 'DELETE', `/v1/jobs/${receipt.id}`, {
        key: account.key,
        web: 1,
      });
      expect(del.status).toBe(200);
      expect(await storedKeys(stack, receipt.id)).toEqual([]);
    });

    it(
      'checks an image-to-video still PUT straight into S3: a PNG ' +
        'becomes the clip it prices and completes; a non-image is ' +
        'refused and deleted',
      async () => {
        const png = await stillFrame(talk, path.join(tmp, 'still.png'), {
          filters: 'scale=160:160',
        });
        const create = (filename: string, contentType: string) =>
          api<Receipt>(stack, 'POST', '/v1/h3/image-to-video', {
            key: account.key,
            web: 1,
            body: {
              filename,
              content_type: contentType,
              duration_seconds: 1,
              fps: 12,
              motion: 'zoom_in',
              model: 'service-light',
              background: { type: 'transparent', transparent_format: 'webm_vp9' },
            },
          });
        const created = await create('still.png', 'image/png');
        expect(created.status, created.text).toBe(200);
        expect(new URL(created.body.upload_url).origin).toBe(
          new URL(stack.env.S3_ENDPOINT!).origin,
        );
        expect((await putUpload(created.body, png)).status).toBe(200);
        const status = await api(stack, 'GET', `/v1/jobs/${created.body.id}/status`, {
          key: account.key,
        });
        expect(status.body, status.text).toMatchObject({ status: 'uploaded', length_seconds: 1 });
        expect(await storedKeys(stack, created.body.id)).toEqual([
          expect.stringMatching(new RegExp(`^jobs/${created.body.id}/still-[0-9a-f]{8}\\.png$`)),
        ]);
        const start = await api(stack, 'POST', `/v1/jobs/${created.body.id}/start`, {
          key: account.key,
          body: {},
        });
        expect(start.status, start.text).toBe(200);
        // service-light: 0.75 credits per second of output, 1 s → 1 credit (rounded up).
        expect(start.body).toMatchObject({ creditsUsed: 1, video_length_seconds: 1 });
        const done = await waitForJob(stack, account.key, created.body.id, { timeoutMs: 400_000 });
        expect(done.status, `${done.message}\n${stack.logs()}`).toBe('completed');
        const webm = path.join(tmp, 'still.webm');
        fs.writeFileSync(
          webm,
          Buffer.from(await (await fetch(String(done.processed_video_url))).arrayBuffer()),
        );
        expect(await decodedFrames(webm)).toBe(12);

        const text = await create('notes.png', 'image/png');
        const notImage = path.join(tmp, 'notes.png');
        fs.writeFileSync(notImage, 'not a picture at all');
        expect((await putUpload(text.body, notImage)).status).toBe(200);
        const refused = await api(stack, 'POST', `/v1/jobs/${text.body.id}/start`, {
          key: account.key,
          body: {},
        });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatch(/not a supported image/);
        const after = await api(stack, 'GET', `/v1/jobs/${text.body.id}/status`, {
          key: account.key,
          web: 1,
        });
        expect(after.body).toMatchObject({
          status: 'created',
          message: expect.stringContaining('Upload the image again') as string,
        });
        expect(await storedKeys(stack, text.body.id)).toEqual([]);
      },
    );

    it(
      'checks an upload PUT straight into S3 before the job is ' +
        'uploaded: over the cap or not a video is refused and deleted',
      async () => {
        const big = await createJob(stack, account.key, 'big.mp4');
        const junk = path.join(tmp, 'big.mp4');
        fs.writeFileSync(junk, Buffer.alloc(CAP + 1, 7));
        expect((await putUpload(big, junk)).status).toBe(200);
        const tooBig = await api(stack, 'POST', `/v1/jobs/${big.id}/start`, {
          key: account.key,
          body: {},
        });
        expect(tooBig.status).toBe(413);
        expect(tooBig.body.error).toBe('File too large');
        expect(await storedKeys(stack, big.id)).toEqual([]);
        const status = await api(stack, 'GET', `/v1/jobs/${big.id}/status`, {
          key: account.key,
          web: 1,
        });
        expect(status.body).toMatchObject({
          status: 'created',
          message: expect.stringContaining('The upload was refused: File too large') as string,
        });

        const text = await createJob(stack, account.key, 'notes.mp4');
        const notVideo = path.join(tmp, 'notes.mp4');
        fs.writeFileSync(notVideo, '#EXTM3U\n#EXT-X-ENDLIST\n');
        expect((await putUpload(text, notVideo)).status).toBe(200);
        const refused = await api(stack, 'GET', `/v1/jobs/${text.id}/status`, { key: account.key });
        expect(refused.body).toMatchObject({
          status: 'created',
          message: expect.stringContaining('not a supported video') as string,
        });
        expect(await storedKeys(stack, text.id)).toEqual([]);
        // Uploading again with the same URL works once the file is a video.
        expect((await putUpload(text, short)).status).toBe(200);
        expect(
          (await api(stack, 'GET', `/v1/jobs/${text.id}/status`, { key: account.key, web: 1 })).body
            .status,
        ).toBe('uploaded');
        expect(await storedKeys(stack, text.id)).toEqual([
          expect.stringMatching(new RegExp(`^jobs/${text.id}/source-[0-9a-f]{8}\\.mp4$`)),
        ]);
      },
    );
  },
);
