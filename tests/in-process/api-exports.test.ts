import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstStream } from '../support/frames';
import { tempDir } from '../support/temp-dir';
import {
  api,
  createAccount,
  cutClip,
  hasTestdata,
  settled,
  stackDb,
  startStack,
  testVideo,
  uploadedJob,
  waitForCompletion,
  writeInvertedMaskVersion,
  type Stack,
  type TestAccount,
} from './helpers';

const run = promisify(execFile);

interface ExportRecord {
  export_id: string;
  job_id: string;
  format: string;
  status: string;
  transform: Record<string, unknown> | null;
  mask_version: number | null;
  batch_id: string | null;
  created_at: string;
  output_url?: string;
  poster_url?: string;
  metadata?: Record<string, unknown> & {
    sha256: string;
    bytes: number;
    width: number;
    height: number;
  };
  error?: string;
}
interface BatchRecord {
  batch_id: string;
  job_id: string;
  status: string;
  use_gpu: boolean;
  total_exports: number;
  completed_exports: number;
  failed_exports: number;
  exports: ExportRecord[];
}

// Exports and batches from a completed job, as a client uses them: the API and the worker in
// process (the in-process tier: stand-in models), real ffmpeg.
describe.skipIf(!hasTestdata)('exports and batches (needs ../shared/testdata)', () => {
  let stack: Stack;
  let owner: TestAccount;
  let other: TestAccount;
  const tmp = tempDir('exports');
  let jobId: string;
  let startBatch: { batch_id: string; exports: { export_id: string }[] };

  const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
  const exportDone = (id: string, key = owner.key) =>
    settled<ExportRecord>(stack, key, `/v1/exports/${id}`, { timeoutMs: 180_000 });
  const batchDone = (id: string) =>
    settled<BatchRecord>(stack, owner.key, `/v1/batches/${id}`, { timeoutMs: 240_000 });
  /** Mean of a greyscale mask video's first frames. */
  const meanOf = async (file: string) => {
    const { stdout } = await run(
      'ffmpeg',
      ['-v', 'error', '-i', file, '-frames:v', '5', '-vf', 'format=gray', '-f', 'rawvideo', '-'],
      { encoding: 'buffer', maxBuffer: 1 << 28 },
    );
    return stdout.reduce((s, v) => s + v, 0) / stdout.length;
  };

  beforeAll(async () => {
    let clip: string;
    [stack, clip] = await Promise.all([
      startStack({ worker: true }),
      cutClip(testVideo('liveportrait_d12_talking_glasses_512.mp4'), path.join(tmp, 'talk.mp4'), 2),
    ]);
    [owner, other] = await Promise.all([createAccount(stack, 20), createAccount(stack, 20)]);
    jobId = await uploadedJob(stack, owner.key, clip);
    const start = await api<{ batch_id: string; exports: { export_id: string }[] }>(
      stack,
      'POST',
      `/v1/jobs/${jobId}/start`,
      {
        key: owner.key,
        body: {
          model: 'service-human',
          background: { type: 'transparent', transparent_format: 'webm_vp9' },
          exports: [{ format: 'gif' }],
        },
      },
    );
    expect(start.status, start.text).toBe(200);
    startBatch = start.body;
    // Before completion there is nothing to export from.
    const early = await api(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
      key: owner.key,
      body: { format: 'webp' },
    });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/completed job/);
    await waitForCompletion(stack, owner.key, jobId, { timeoutMs: 280_000 });
  });
  afterAll(() => stack?.stop());

  it(
    "makes start-time exports pollable, and the status record's " + "export_id is the primary's",
    async () => {
      const status = await api<{ export_id: string; processed_video_url: string }>(
        stack,
        'GET',
        `/v1/jobs/${jobId}/status`,
        { key: owner.key },
      );
      const primary = await api<ExportRecord>(
        stack,
        'GET',
        `/v1/exports/${status.body.export_id}`,
        {
          key: owner.key,
        },
      );
      expect(primary.body).toMatchObject({
        status: 'completed',
        format: 'webm_vp9',
        mask_version: 1,
        batch_id: startBatch.batch_id,
      });
      expect(new URL(primary.body.output_url!).pathname).toBe(
        new URL(status.body.processed_video_url).pathname,
      );
      const gif = await api<ExportRecord>(
        stack,
        'GET',
        `/v1/exports/${startBatch.exports[0]!.export_id}`,
        { key: owner.key },
      );
      expect(gif.body).toMatchObject({
        status: 'completed',
        format: 'gif',
        metadata: { validated: true, format: 'gif', loop: true },
      });
      const batch = await api<BatchRecord>(stack, 'GET', `/api/v1/batches/${startBatch.batch_id}`, {
        key: owner.key,
      });
      expect(batch.body).toMatchObject({
        status: 'completed',
        total_exports: 2,
        completed_exports: 2,
        failed_exports: 0,
        use_gpu: false,
      });
    },
  );

  it(
    'exports a completed job again, free, validated, with a poster; ' +
      'the metadata matches the bytes served',
    async () => {
      const before = (
        await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key: owner.key })
      ).body.remaining_credits;
      const r = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
        key: owner.key,
        body: { format: 'mov_prores', transform: { max_width: 256, reverse: true } },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        job_id: jobId,
        format: 'mov_prores',
        status: 'queued',
        transform: { max_width: 256, reverse: true },
        mask_version: 1,
      });
      expect(r.headers.get('x-api-version')).toBe('1.6.0');
      const done = await exportDone(r.body.export_id);
      expect(done.status, done.error).toBe('completed');
      expect(done.metadata).toMatchObject({
        validated: true,
        format: 'prores',
        profile: 'video-alpha',
        width: 256,
        height: 256,
        has_alpha: true,
        loop: false,
        frame_count: 50,
      });
      expect(done.metadata!.duration_seconds).toBeCloseTo(2, 1);
      const bytes = await download(done.output_url!);
      expect(bytes.length).toBe(done.metadata!.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(done.metadata!.sha256);
      const poster = await download(done.poster_url!);
      expect(poster.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      const posterFile = path.join(tmp, 'poster.png');
      fs.writeFileSync(posterFile, poster);
      expect(await firstStream(posterFile)).toMatchObject({
        codec_name: 'png',
        width: 256,
        height: 256,
        pix_fmt: 'rgba',
      });
      const after = (
        await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key: owner.key })
      ).body.remaining_credits;
      expect(after).toBe(before);
    },
  );

  it('answers bad input with the error body and keeps everything stored', async () => {
    const prisma = await stackDb(stack);
    const outputsBefore = await prisma.output.count({ where: { jobId } });
    const post = (body: unknown, p = 'exports') =>
      api(stack, 'POST', `/v1/jobs/${jobId}/${p}`, { key: owner.key, body });
    for (const [body, pattern] of [
      [{}, /format is required/],
      [{ format: 'mpeg1' }, /format/],
      [{ format: 'flash' }, /format/],
      [{ format: 'webm_vp9', transform: { crop: { x: -1, y: 0, width: 10, height: 10 } } }, /crop/],
      [{ format: 'webm_vp9', mask_version: 7 }, /mask_version 7 does not exist/],
      [{ format: 'webm_vp9', mask_version: 'one' }, /mask_version/],
    ] as const) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toMatch(pattern);
      expect(Object.keys(r.body).every((k) => k === 'error' || k === 'details')).toBe(true);
    }
    const notJson = await fetch(`${stack.baseUrl}/v1/jobs/${jobId}/exports`, {
      method: 'POST',
      headers: { 'X-Api-Key': owner.key, 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    for (const [body, pattern] of [
      [{}, /exports \(or profiles\) is required/],
      [
        { exports: [{ format: 'mask_video', sizes: [320] }] },
        /numeric sizes are not supported for mask_video/,
      ],
      [
        { exports: [{ format: 'webm_vp9', sizes: Array.from({ length: 51 }, (_, i) => 100 + i) }] },
        /at most 50 unique outputs/,
      ],
      [{ exports: [{ format: 'gif' }], profiles: [{ format: 'gif' }] }, /not both/],
    ] as const) {
      const r = await post(body, 'batch-exports');
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(pattern);
    }
    const wrongMethod = await api(stack, 'GET', `/v1/jobs/${jobId}/exports`, { key: owner.key });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await prisma.output.count({ where: { jobId } })).toBe(outputsBefore);
  });

  it("answers 404 for another account's job, export and batch, and for unknown ids", async () => {
    const mine = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
      key: owner.key,
      body: { format: 'webp' },
    });
    const nope = [
      await api(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
        key: other.key,
        body: { format: 'webp' },
      }),
      await api(stack, 'POST', `/v1/jobs/${jobId}/batch-exports`, {
        key: other.key,
        body: { exports: [{ format: 'webp' }] },
      }),
      await api(stack, 'GET', `/v1/exports/${mine.body.export_id}`, { key: other.key }),
      await api(stack, 'GET', `/v1/batches/${startBatch.batch_id}`, { key: other.key }),
      await api(stack, 'GET', '/v1/exports/00000000-0000-4000-8000-000000000000', {
        key: owner.key,
      }),
      await api(stack, 'GET', '/v1/batches/not-a-uuid', { key: owner.key }),
      await api(stack, 'POST', '/v1/jobs/00000000-0000-4000-8000-000000000000/exports', {
        key: owner.key,
        body: { format: 'webp' },
      }),
    ];
    expect(nope.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(nope[2]!.body).toEqual({ error: 'Export not found or does not belong to user' });
    expect(nope[3]!.body).toEqual({ error: 'Batch not found or does not belong to user' });
    expect(nope[0]!.body).toEqual({ error: 'Job not found or does not belong to user' });
    expect((await exportDone(mine.body.export_id)).status).toBe('completed');
  });

  it.each([false, true])(
    'completes a batch of 4 with every export validated (use_gpu %s)',
    async (useGpu) => {
      const r = await api<BatchRecord>(stack, 'POST', `/v1/jobs/${jobId}/batch-exports`, {
        key: owner.key,
        body: {
          [useGpu ? 'profiles' : 'exports']: [
            { format: 'webm_vp9', sizes: ['native', 256] },
            { format: 'mask_video', sizes: ['native'] },
            { format: useGpu ? 'gif' : 'apng', sizes: [128], transform: { fps: 12 } },
          ],
          use_gpu: useGpu,
        },
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        job_id: jobId,
        status: 'queued',
        total_exports: 4,
        use_gpu: useGpu,
      });
      expect(r.body.exports.map((e) => [e.format, e.status, e.transform])).toEqual([
        ['webm_vp9', 'queued', null],
        ['webm_vp9', 'queued', { max_width: 256 }],
        ['mask_video', 'queued', null],
        [useGpu ? 'gif' : 'apng', 'queued', { fps: 12, max_width: 128 }],
      ]);
      const done = await batchDone(r.body.batch_id);
      expect(done).toMatchObject({ status: 'completed', completed_exports: 4, failed_exports: 0 });
      for (const e of done.exports) {
        expect(e.metadata, e.format).toMatchObject({ validated: true });
        expect(e.output_url).toMatch(/^http:\/\//);
      }
      expect(done.exports[1]!.metadata).toMatchObject({ width: 256, height: 256 });
      expect(done.exports[3]!.metadata).toMatchObject({ width: 128, loop: true });
    },
  );

  it(
    'renders mask_version 1 after a newer version is active, and ' + 'the newer one by default',
    async () => {
      await writeInvertedMaskVersion(stack, jobId, 2);
      const latest = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
        key: owner.key,
        body: { format: 'mask_video' },
      });
      const first = await api<ExportRecord>(stack, 'POST', `/v1/jobs/${jobId}/exports`, {
        key: owner.key,
        body: { format: 'mask_video', mask_version: 1 },
      });
      expect([latest.body.mask_version, first.body.mask_version]).toEqual([2, 1]);
      const [a, b] = await Promise.all([
        exportDone(latest.body.export_id),
        exportDone(first.body.export_id),
      ]);
      const fa = path.join(tmp, 'v2.mp4');
      const fb = path.join(tmp, 'v1.mp4');
      fs.writeFileSync(fa, await download(a.output_url!));
      fs.writeFileSync(fb, await download(b.output_url!));
      const [m2, m1] = [await meanOf(fa), await meanOf(fb)];
      expect(Math.abs(m1 - m2)).toBeGreaterThan(40);
      expect(m1 + m2).toBeGreaterThan(240);
      expect(m1 + m2).toBeLessThan(270);
    },
  );
});
