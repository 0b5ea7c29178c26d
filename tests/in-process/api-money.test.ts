import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import {
  AUDIO_OUTLASTS_VIDEO,
  FASTSTART,
  fromLavfi,
  syntheticClip,
} from '../../lib/media/fixtures';
import { ffmpeg } from '../../lib/media/ffmpeg';
import {
  api,
  createAccount,
  createJob,
  putUpload,
  refusedUpload,
  stackDb,
  stackKind,
  startStack,
  storedBytes,
  storedKeys,
  uploadedJob,
  waitFor,
  waitForJob,
  type Receipt,
  type Stack,
} from './helpers';

/**
 * The price is the video stream's duration, the same duration the caps and the pipeline use;
 * headers that disagree are refused before any charge; a started job's video and price never
 * change. Each case is one the hardening review got wrong. On both stacks: where uploads go
 * straight into S3, the store takes every PUT and the checks run on the next status call or start.
 */
let stack: Stack;
let prisma: Db;
const onS3 = stackKind() === 'scale';

beforeAll(async () => {
  stack = await startStack({ worker: true });
  prisma = await stackDb(stack);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await stack?.stop();
});

/**
 * A PUT of `bytes` to `uploadUrl` with its first half sent and the connection held open; `finish`
 * sends the rest.
 */
function halfSentPut(
  uploadUrl: string,
  contentType: string,
  bytes: Buffer,
): { finish: () => void; answered: Promise<{ status: number; body: string }> } {
  const url = new URL(uploadUrl);
  const put = http.request({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path: url.pathname + url.search,
    headers: { 'Content-Type': contentType, 'Content-Length': bytes.length },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    put.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    put.on('error', reject);
  });
  put.write(bytes.subarray(0, bytes.length / 2));
  return { finish: () => put.end(bytes.subarray(bytes.length / 2)), answered };
}

function clip(name: string, seconds: number): Promise<string> {
  return syntheticClip(path.join(stack.dataDir, name), {
    seconds,
    size: '256x256',
    extra: FASTSTART,
  });
}

/** The movie header's duration rewritten, as a hostile upload would. */
function claiming(file: string, seconds: number): string {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf('mvhd');
  bytes.writeUInt32BE(Math.round(seconds * bytes.readUInt32BE(at + 16)), at + 20);
  const out = file.replace(/\.mp4$/, `-claims-${seconds}.mp4`);
  fs.writeFileSync(out, bytes);
  return out;
}

const balance = async (key: string) =>
  (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })).body
    .remaining_credits;
const entries = (jobId: string) =>
  prisma.creditEntry.findMany({ where: { jobId }, orderBy: { createdAt: 'asc' } });

describe('one duration of truth', () => {
  it.each([
    [
      'a 2 s clip whose header claims 36,000 s',
      2,
      36_000,
      "The file's container says it lasts 36000.0 s but its video stream runs for 2.0 s",
    ],
    [
      'a 30 s stream whose header claims 0.5 s',
      30,
      0.5,
      "The file's container says it lasts 0.5 s but its video stream runs for 30.0 s",
    ],
  ])('refuses %s at upload, before any charge', async (_what, seconds, claim, message) => {
    const { key } = await createAccount(stack, 100_000);
    const receipt = await createJob(stack, key);
    const refused = await refusedUpload(
      stack,
      key,
      receipt,
      claiming(await clip(`c${seconds}.mp4`, seconds), claim),
    );
    expect(refused.status).toBe(onS3 ? 200 : 400);
    expect(refused.reason).toContain(message);
    const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
      key,
      body: { model: 'service-original' },
    });
    expect(start.status).toBe(400);
    expect(start.body.error).toBe('Upload the video before starting the job');
    expect(await balance(key)).toBe(100_000);
  });

  it('refuses a faststart MP4 cut in half at upload: its header still declares 2 s', async () => {
    const { key } = await createAccount(stack, 10);
    const whole = await clip('whole.mp4', 2);
    const half = path.join(stack.dataDir, 'half.mp4');
    fs.writeFileSync(
      half,
      fs.readFileSync(whole).subarray(0, Math.floor(fs.statSync(whole).size / 2)),
    );
    const receipt = await createJob(stack, key);
    const refused = await refusedUpload(stack, key, receipt, half);
    expect(refused.status).toBe(onS3 ? 200 : 400);
    expect(refused.reason).toMatch(
      /^The file is incomplete: its video stream declares 2\.0 s but its frames stop after/,
    );
    expect(await storedKeys(stack, receipt.id)).toEqual([]);
  });

  it(
    'prices a video whose audio runs on by the video: 4 s at 0.75 ' + 'credit/s is 3, not 6',
    async () => {
      const { key } = await createAccount(stack, 10);
      const file = path.join(stack.dataDir, 'audio-longer.mp4');
      await ffmpeg([...AUDIO_OUTLASTS_VIDEO, file]);
      const jobId = await uploadedJob(stack, key, file);
      const start = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
        key,
        body: { model: 'service-human' },
      });
      expect(start.body).toMatchObject({ creditsUsed: 3, video_length_seconds: 4 });
      expect((await entries(jobId)).map((e) => e.amount)).toEqual([-3]);
      expect((await waitForJob(stack, key, jobId)).status).toBe('completed');
    },
  );

  it(
    'fails and refunds a file that decodes to less than it declares ' +
      '(an intact index over damaged data)',
    async () => {
      const { key } = await createAccount(stack, 10);
      const bytes = fs.readFileSync(await clip('damage-me.mp4', 2));
      const mdat = bytes.indexOf('mdat');
      const end = mdat - 4 + bytes.readUInt32BE(mdat - 4);
      bytes.fill(0, Math.floor((mdat + 4 + end) / 2), end);
      const damaged = path.join(stack.dataDir, 'damaged.mp4');
      fs.writeFileSync(damaged, bytes);
      const jobId = await uploadedJob(stack, key, damaged);
      const start = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
        key,
        body: { model: 'service-human' },
      });
      expect(start.body).toMatchObject({ creditsUsed: 2, video_length_seconds: 2 });
      const done = await waitForJob(stack, key, jobId);
      expect(done.status, stack.logs()).toBe('failed');
      expect(done.message).toMatch(/^The video could not be decoded past 1\.\d s of its 2\.0 s: /);
      expect(done.message).toMatch(/: the file is damaged or incomplete\.$/);
      expect((await entries(jobId)).map((e) => [e.kind, e.amount])).toEqual([
        ['debit', -2],
        ['refund', 2],
      ]);
      expect(await balance(key)).toBe(10);
    },
  );
});

describe('transforms are bounded by the video at start', () => {
  it(
    'refuses a crop outside the frame (1e308 passed before), for ' +
      'the primary output and exports, before any charge',
    async () => {
      const { key } = await createAccount(stack, 10);
      const jobId = await uploadedJob(stack, key, await clip('bounds.mp4', 1));
      const cases: [unknown, RegExp][] = [
        [
          { transform: { crop: { x: 1e308, y: 0, width: 10, height: 10 } } },
          /^Invalid background\.transform\.crop: it must lie inside the 256x256 video$/,
        ],
        [
          { transform: { crop: { x: 0, y: 0, width: 300, height: 100 } } },
          /inside the 256x256 video/,
        ],
      ];
      for (const [background, message] of cases) {
        const r = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
          key,
          body: { background: { type: 'transparent', ...(background as object) } },
        });
        expect(r.status, r.text).toBe(400);
        expect(r.body.error).toMatch(message);
      }
      const exports = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
        key,
        body: {
          background: { type: 'transparent' },
          exports: [
            { format: 'webm_vp9', transform: { crop: { x: 0, y: 250, width: 64, height: 64 } } },
          ],
        },
      });
      expect(exports.status).toBe(400);
      expect(exports.body.error).toMatch(/^Invalid exports\.transform\.crop/);
      expect(await balance(key)).toBe(10);
      expect((await api(stack, 'GET', `/v1/jobs/${jobId}/status`, { key })).body.status).toBe(
        'uploaded',
      );
    },
  );
});

/** A job's checked uploads (`source-…`, `still-…`), not the upload target that S3 PUTs land on. */
const kept = async (jobId: string, kind: 'source' | 'still') =>
  (await storedKeys(stack, jobId)).filter((k) => path.basename(k).startsWith(`${kind}-`));
const sha256 = async (key: string) =>
  createHash('sha256')
    .update(await storedBytes(stack, key))
    .digest('hex');
const uploadedStatus = async (key: string, jobId: string) =>
  (await api(stack, 'GET', `/v1/jobs/${jobId}/status`, { key })).body.status;

/**
 * A second upload that ends after the job's start (with `startBody`, one credit). Our upload
 * route sees it: the PUT begins before the start (half sent, held open while it streams to disk)
 * and is answered when it ends, with a 409 naming the `media` that cannot be replaced, its bytes
 * gone from disk. A PUT straight into S3 is the store's to take; it lands on the upload target,
 * which only the checks of a job still `created` read.
 */
async function lateUploadRefused(
  key: string,
  upload: Receipt,
  startBody: Record<string, unknown>,
  media: 'video' | 'image',
  bytes: Buffer<ArrayBuffer>,
): Promise<void> {
  const start = async () => {
    const r = await api<{ creditsUsed: number }>(stack, 'POST', `/v1/jobs/${upload.id}/start`, {
      key,
      body: startBody,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.creditsUsed).toBe(1);
  };
  const contentType = media === 'video' ? 'video/mp4' : 'image/png';
  const late = await lateUpload(upload, contentType, bytes, start);
  if (onS3) {
    expect(late.status).toBe(200);
    return;
  }
  expect(late.status).toBe(409);
  expect(JSON.parse(late.body)).toEqual({
    error: `The job has already been started; its ${media} cannot be replaced`,
  });
  expect(fs.readdirSync(path.join(stack.dataDir, 'tmp'))).toEqual([]);
}

/** The late PUT of `bytes` itself, held open across `start`; its answer. */
async function lateUpload(
  upload: Receipt,
  contentType: string,
  bytes: Buffer<ArrayBuffer>,
  start: () => Promise<void>,
): Promise<{ status: number; body: string }> {
  if (onS3) {
    await start();
    const put = await putUpload(upload, bytes);
    return { status: put.status, body: await put.text() };
  }
  const { finish, answered } = halfSentPut(upload.upload_url, contentType, bytes);
  await waitFor(
    () =>
      Promise.resolve(
        fs.readdirSync(path.join(stack.dataDir, 'tmp')).some((f) => f.startsWith(upload.id)) ||
          undefined,
      ),
    {
      what: 'the second upload to be streaming',
    },
  );
  await start();
  finish();
  return answered;
}

describe('uploads are immutable once a job starts', () => {
  it(
    'a PUT that ends after the start cannot replace the video (our ' +
      'route answers 409); the job keeps its video and its price',
    async () => {
      const { key } = await createAccount(stack, 100);
      const receipt = await createJob(stack, key);
      expect((await putUpload(receipt, await clip('first.mp4', 1))).status).toBe(200);
      expect(await uploadedStatus(key, receipt.id)).toBe('uploaded');
      const before = await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } });
      const originalHash = await sha256(before.sourceKey!);

      // A second, longer upload.
      await lateUploadRefused(
        key,
        receipt,
        { model: 'service-human' },
        'video',
        fs.readFileSync(await clip('second.mp4', 16)),
      );

      const after = await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } });
      expect(after).toMatchObject({
        sourceKey: before.sourceKey,
        lengthSeconds: before.lengthSeconds,
        creditsUsed: 1,
      });
      expect(['processing', 'completed']).toContain(after.status);
      expect(await sha256(before.sourceKey!)).toBe(originalHash);
      expect(await kept(receipt.id, 'source')).toEqual([before.sourceKey]);

      // A second start answers the first one again: same price, one debit.
      const again = await api<{ creditsUsed: number }>(
        stack,
        'POST',
        `/v1/jobs/${receipt.id}/start`,
        { key, body: { model: 'service-human' } },
      );
      if (again.status === 200) expect(again.body.creditsUsed).toBe(1);
      else expect(again.status).toBe(400); // already completed: a job runs once
      expect((await entries(receipt.id)).map((e) => e.amount)).toEqual([-1]);
      expect((await waitForJob(stack, key, receipt.id)).status).toBe('completed');
      expect(await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } })).toMatchObject({
        sourceKey: before.sourceKey,
        lengthSeconds: before.lengthSeconds,
      });
    },
  );

  it(
    "a PUT of another image that ends after an image-to-video job's " +
      'start cannot replace it (our route answers 409); the job keeps ' +
      'its image',
    async () => {
      const { key } = await createAccount(stack, 100);
      const png = async (name: string, size: string) => {
        const out = path.join(stack.dataDir, name);
        await fromLavfi(out, `nullsrc=s=${size},geq=random(1)*255:128:128`, ['-frames:v', '1']);
        return out;
      };
      const created = await api<Receipt>(stack, 'POST', '/v1/h3/image-to-video', {
        key,
        body: {
          filename: 'still.png',
          content_type: 'image/png',
          duration_seconds: 1,
          fps: 12,
          model: 'service-light',
          background: { type: 'transparent' },
        },
      });
      expect(created.status, created.text).toBe(200);
      expect((await putUpload(created.body, await png('small.png', '64x64'))).status).toBe(200);
      expect(await uploadedStatus(key, created.body.id)).toBe('uploaded');
      const before = await prisma.job.findUniqueOrThrow({ where: { id: created.body.id } });
      const originalHash = await sha256(before.stillKey!);

      await lateUploadRefused(
        key,
        created.body,
        {},
        'image',
        fs.readFileSync(await png('big.png', '640x640')),
      );
      const after = await prisma.job.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(after).toMatchObject({
        stillKey: before.stillKey,
        width: before.width,
        height: before.height,
        creditsUsed: 1,
      });
      expect(['processing', 'completed']).toContain(after.status);
      expect(await sha256(before.stillKey!)).toBe(originalHash);
      expect(await kept(created.body.id, 'still')).toEqual([before.stillKey]);
      expect((await entries(created.body.id)).map((e) => e.amount)).toEqual([-1]);
      expect((await waitForJob(stack, key, created.body.id)).status).toBe('completed');
      expect(await prisma.job.findUniqueOrThrow({ where: { id: created.body.id } })).toMatchObject({
        stillKey: before.stillKey,
        width: 64,
      });
    },
  );

  it('an upload before start may replace the video; the start prices the one it sees', async () => {
    const { key } = await createAccount(stack, 100);
    const receipt = await createJob(stack, key);
    expect((await putUpload(receipt, await clip('one.mp4', 1))).status).toBe(200);
    expect((await putUpload(receipt, await clip('three.mp4', 3))).status).toBe(200);
    const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
      key,
      body: { model: 'service-human' },
    });
    expect(start.body).toMatchObject({ creditsUsed: 3, video_length_seconds: 3 });
    expect(await kept(receipt.id, 'source')).toHaveLength(1);
    expect((await waitForJob(stack, key, receipt.id)).status).toBe('completed');
  });
});
