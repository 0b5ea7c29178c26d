import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir';
import type { Db } from '../../lib/db/client';
import {
  api,
  createAccount,
  createJob,
  enqueued,
  postMultipartJob,
  putUpload,
  refusedLongSource,
  roomInWindow,
  stackDb,
  startStack,
  storedKeys,
  storedUrlPrefix,
  syntheticClip,
  uploadedJob,
  type Stack,
  type TestAccount,
} from './helpers';

// The API without a worker: jobs stay `processing` after start, which is all these need. Runs on
// both stacks (npm test, npm run test:scale); where uploads go straight into S3, the store
// answers the PUT and the job is checked when it is next used.
const s3 = () => stack.kind === 'scale';
let stack: Stack;
let alice: TestAccount;
let bob: TestAccount;
let prisma: Db;
const tmp = tempDir('api-jobs');
let clip25: string; // 2 s at 25 fps
let clip60: string; // 2 s at 60 fps

beforeAll(async () => {
  [stack, clip25, clip60] = await Promise.all([
    startStack(),
    syntheticClip(path.join(tmp, 'clip25.mp4'), { seconds: 2, fps: 25 }),
    syntheticClip(path.join(tmp, 'clip60.mp4'), { seconds: 2, fps: 60 }),
  ]);
  [alice, bob] = await Promise.all([createAccount(stack, 100), createAccount(stack, 100)]);
  prisma = await stackDb(stack);
});
afterAll(() => stack?.stop());

const credits = async (key: string) =>
  (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })).body;

describe('POST /v1/jobs', () => {
  it('answers 400 with the spec message when neither source is given', async () => {
    for (const body of [
      {},
      { filename: 'a.mp4' },
      { content_type: 'video/mp4' },
      { filename: null, content_type: null, video_url: null },
    ]) {
      const r = await api(stack, 'POST', '/v1/jobs', { key: alice.key, body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        error: 'One of (filename with content_type) or video_url is required',
      });
      expect(typeof r.body.error).toBe('string');
      expect(r.headers.get('x-api-version')).toBe('1.6.0');
    }
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/jobs`, {
      method: 'POST',
      headers: { 'X-Api-Key': alice.key, 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Invalid JSON body',
      details: 'The request body is not valid JSON.',
    });
  });

  it(
    'takes a video content_type or application/octet-stream, and ' + 'answers 400 for any other',
    async () => {
      for (const type of ['text/html', 'image/svg+xml', 'application/json']) {
        const r = await api(stack, 'POST', '/v1/jobs', {
          key: alice.key,
          body: { filename: 'page.mp4', content_type: type },
        });
        expect(r.status, type).toBe(400);
        expect(r.body.error).toBe(
          'Invalid content_type: must be a video type such as video/mp4 ' +
            `(or application/octet-stream), not ${type}`,
        );
      }
      for (const type of [
        'video/quicktime',
        'video/x-matroska',
        'application/octet-stream',
        'VIDEO/MP4; codecs="avc1"',
      ]) {
        const r = await api(stack, 'POST', '/v1/jobs', {
          key: alice.key,
          body: { filename: 'clip.mkv', content_type: type },
        });
        expect(r.status, type).toBe(200);
      }
    },
  );

  it('returns a receipt with an absolute signed PUT URL valid for one hour', async () => {
    const receipt = await createJob(stack, alice.key, 'talk.mov', 'video/mp4');
    expect(receipt).toMatchObject({
      status: 'created',
      filename: 'talk.mov',
      content_type: 'video/mp4',
      instructions: { method: 'PUT', headers: { 'Content-Type': 'video/mp4' } },
    });
    expect(
      receipt.upload_url.startsWith(`${storedUrlPrefix(stack)}jobs/${receipt.id}/source?`),
      receipt.upload_url,
    ).toBe(true);
    const ttl = Date.parse(receipt.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const status = await api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key: alice.key });
    expect(status.body).toMatchObject({
      id: receipt.id,
      status: 'created',
      filename: 'talk.mov',
      export_id: null,
      length_seconds: null,
      thumbnail_url: null,
      transparent_thumbnail_url: null,
      processed_video_url: null,
      processed_mask_url: null,
      message: null,
      background: null,
      output_format: null,
    });
  });

  it('takes a multipart `file` straight to uploaded', async () => {
    const res = await postMultipartJob(stack, alice.key, clip25, 'form.mp4');
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: 'uploaded', filename: 'form.mp4' });
    expect(body.length_seconds).toBeCloseTo(2, 1);
  });

  it('downloads a video_url now and probes it', async () => {
    const receipt = await createJob(stack, alice.key);
    await putUpload(receipt, clip25);
    const status = await api<{ processed_video_url: string | null }>(
      stack,
      'GET',
      `/v1/jobs/${receipt.id}/status`,
      { key: alice.key },
    );
    expect(status.body.processed_video_url).toBeNull();
    // Our own signed file URL serves as a public video URL (private addresses are allowed in
    // tests).
    const source = await prisma.job.findUniqueOrThrow({ where: { id: receipt.id } });
    const { storage } = await import('../../lib/storage');
    const url = await storage().signedUrl(source.sourceKey!, { method: 'GET' });
    const r = await api(stack, 'POST', '/v1/jobs', { key: alice.key, body: { video_url: url } });
    expect(r.status).toBe(200);
    // The name comes from the URL's path: the source's own key (each upload has its own).
    expect(r.body).toMatchObject({
      status: 'uploaded',
      video_url: url,
      filename: source.sourceKey!.split('/').pop(),
    });
    const bad = await api(stack, 'POST', '/v1/jobs', {
      key: alice.key,
      body: { video_url: 'ftp://example.com/a.mp4' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'video_url must be an http(s) URL',
      details: 'video_url: video_url must be an http(s) URL',
    });
  });
});

describe('signed upload', () => {
  it('stores the PUT body and the job is uploaded when the PUT returns', async () => {
    const receipt = await createJob(stack, alice.key);
    const res = await putUpload(receipt, clip25);
    expect(res.status).toBe(200);
    if (!s3()) expect(await res.json()).toMatchObject({ id: receipt.id, status: 'uploaded' });
    const status = await api<{ status: string; length_seconds: number }>(
      stack,
      'GET',
      `/v1/jobs/${receipt.id}/status`,
      { key: alice.key },
    );
    expect(status.body.status).toBe('uploaded');
    expect(status.body.length_seconds).toBeCloseTo(2, 1);
  });

  it('refuses tampered and expired URLs with 403 and an error body', async () => {
    const receipt = await createJob(stack, alice.key);
    // Our own /files route answers the spec's error body; S3 answers 403 with its own XML.
    const tampered = receipt.upload_url.replace(
      s3() ? /X-Amz-Signature=[^&]+/ : /sig=[^&]+/,
      s3() ? `X-Amz-Signature=${'0'.repeat(64)}` : 'sig=AAAA',
    );
    const r1 = await fetch(tampered, { method: 'PUT', body: 'x' });
    expect(r1.status).toBe(403);
    if (!s3()) expect(await r1.json()).toMatchObject({ error: 'Invalid signature' });
    const other = receipt.upload_url.replace(receipt.id, '00000000-0000-4000-8000-000000000000');
    expect((await fetch(other, { method: 'PUT', body: 'x' })).status).toBe(403);
    const asGet = await fetch(receipt.upload_url);
    expect(asGet.status).toBe(403);
    const { storage } = await import('../../lib/storage');
    const expired = await storage().signedUrl(`jobs/${receipt.id}/source`, {
      method: 'PUT',
      expiresIn: s3() ? 1 : -10,
    });
    if (s3()) await new Promise((r) => setTimeout(r, 2_000));
    const r2 = await fetch(expired, { method: 'PUT', body: 'x' });
    expect(r2.status).toBe(403);
    if (!s3()) expect(await r2.json()).toMatchObject({ error: 'URL expired' });
    expect(await storedKeys(stack, receipt.id)).toEqual([]);
  });

  it('refuses a file that is not a video, and the job stays created', async () => {
    const receipt = await createJob(stack, alice.key);
    const notVideo = path.join(tmp, 'notes.mp4');
    fs.writeFileSync(notVideo, '#EXTM3U\n#EXT-X-VERSION:3\nfile:///etc/passwd\n');
    const res = await putUpload(receipt, notVideo);
    if (s3()) expect(res.status).toBe(200);
    else {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/not a supported video/);
    }
    const status = await api(stack, 'GET', `/v1/jobs/${receipt.id}/status`, { key: alice.key });
    expect(status.body.status).toBe('created');
    if (s3())
      expect(status.body.message).toMatch(/The upload was refused: .*not a supported video/);
    expect(await storedKeys(stack, receipt.id)).toEqual([]);
  });
});

describe('POST /v1/jobs/{id}/start', () => {
  it(
    'charges exactly ceil(rate × duration × fps multiplier) once, ' + 'in one transaction',
    async () => {
      const account = await createAccount(stack, 50);
      const light = await uploadedJob(stack, account.key, clip25);
      const r = await api(stack, 'POST', `/v1/jobs/${light}/start`, {
        key: account.key,
        body: { format: 'mp4', model: 'videobgremover-light', background: null, webhook_url: null },
      });
      expect(r.status).toBe(200);
      // 0.75 × 2 s → 1.5 → 2
      expect(r.body).toMatchObject({ id: light, status: 'processing', creditsUsed: 2 });
      expect(r.body.video_length_seconds).toBeCloseTo(2, 1);
      expect(r.body).not.toHaveProperty('export_id');
      expect((await credits(account.key)).remaining_credits).toBe(48);

      const again = await api(stack, 'POST', `/v1/jobs/${light}/start`, {
        key: account.key,
        body: {},
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: light, creditsUsed: 2 });
      expect((await credits(account.key)).remaining_credits).toBe(48);

      const fast = await uploadedJob(stack, account.key, clip60);
      const r60 = await api(stack, 'POST', `/v1/jobs/${fast}/start`, {
        key: account.key,
        body: {
          background: { type: 'color', color: '#00FF00' },
          webhook_url: 'http://127.0.0.1:9/hook',
        },
      });
      expect(r60.status).toBe(200);
      // service-original 1 credit/s × 2 s × (60/30)
      expect(r60.body).toMatchObject({
        creditsUsed: 4,
        export_id: expect.any(String) as string,
        webhook_url: 'http://127.0.0.1:9/hook',
      });
      expect(r60.body.message).toEqual(expect.any(String));
      expect(r60.body.background).toEqual({ type: 'color', color: '#00FF00' });
      expect(await credits(account.key)).toMatchObject({
        total_credits: 50,
        remaining_credits: 44,
        used_credits: 6,
      });

      const ledger = await prisma.creditEntry.findMany({ where: { jobId: { in: [light, fast] } } });
      expect(ledger.map((e) => [e.kind, e.amount, e.idempotencyKey]).sort()).toEqual(
        [
          ['debit', -2, `debit:${light}`],
          ['debit', -4, `debit:${fast}`],
        ].sort(),
      );
      expect(await enqueued(stack, 'segment-video', fast)).toBe(1);
      const status = await api(stack, 'GET', `/v1/jobs/${fast}/status`, { key: account.key });
      expect(status.body).toMatchObject({
        status: 'processing',
        background: { type: 'color', color: '#00FF00' },
        output_format: 'mp4',
      });
      const deliveries = await api(stack, 'GET', `/v1/webhooks/deliveries?video_id=${fast}`, {
        key: account.key,
      });
      expect(deliveries.body).toMatchObject({ video_id: fast, total_deliveries: 1 });
      expect(deliveries.body.deliveries).toEqual([
        expect.objectContaining({
          event_type: 'job.started',
          webhook_url: 'http://127.0.0.1:9/hook',
          attempt_number: 1,
        }),
      ]);
    },
  );

  it('answers 402 and leaves the job, the balance and the queue untouched', async () => {
    const poor = await createAccount(stack, 1);
    const id = await uploadedJob(stack, poor.key, clip25);
    const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
      key: poor.key,
      body: { model: 'service-original' },
    });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: 'Insufficient credits' });
    expect(r.headers.get('x-ratelimit-limit')).toBe('100');
    expect((await api(stack, 'GET', `/v1/jobs/${id}/status`, { key: poor.key })).body.status).toBe(
      'uploaded',
    );
    expect(await credits(poor.key)).toMatchObject({ remaining_credits: 1, used_credits: 0 });
    expect(await enqueued(stack, 'segment-video', id)).toBe(0);
    expect(await prisma.output.count({ where: { jobId: id } })).toBe(0);
  });

  it(
    'answers 400 with the spec message for a bad colour, and for an ' + 'unknown Lottie preset',
    async () => {
      const id = await uploadedJob(stack, alice.key, clip25);
      const bad = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
        key: alice.key,
        body: { background: { type: 'color', color: 'green' } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('invalid background colour format (must be a hex colour)');
      const lottie = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
        key: alice.key,
        body: {
          background: {
            type: 'transparent',
            transparent_format: 'lottie',
            lottie_options: { preset: 'ultra' },
          },
        },
      });
      expect(lottie.status).toBe(400);
      expect(lottie.body.error).toMatch(
        /lottie_options\.preset must be one of balanced, small, quality, png/,
      );
      const model = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
        key: alice.key,
        body: { model: 'service-mega' },
      });
      expect(model.status).toBe(400);
      expect(model.body.error).toMatch(/^Invalid model/);
      expect(
        (await api(stack, 'GET', `/v1/jobs/${id}/status`, { key: alice.key })).body.status,
      ).toBe('uploaded');
    },
  );

  it(
    'takes 50 unique exports besides a distinct primary output, and ' +
      'refuses 51 before any charge',
    async () => {
      const account = await createAccount(stack, 50);
      const exports = (n: number) => [
        { format: 'webm_vp9', sizes: Array.from({ length: n }, (_, i) => 100 + i) },
      ];
      const background = { type: 'transparent', transparent_format: 'webm_vp9' };
      const refused = await uploadedJob(stack, account.key, clip25);
      const tooMany = await api(stack, 'POST', `/v1/jobs/${refused}/start`, {
        key: account.key,
        body: { background, exports: exports(51) },
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toBe('at most 50 unique outputs are allowed (requested 51)');
      expect((await credits(account.key)).remaining_credits).toBe(50);
      expect(
        (await api(stack, 'GET', `/v1/jobs/${refused}/status`, { key: account.key })).body.status,
      ).toBe('uploaded');

      const id = await uploadedJob(stack, account.key, clip25);
      const r = await api<{ total_exports: number; exports: unknown[] }>(
        stack,
        'POST',
        `/v1/jobs/${id}/start`,
        { key: account.key, body: { background, exports: exports(50) } },
      );
      expect(r.status, r.text).toBe(200);
      expect(r.body.total_exports).toBe(51);
      expect(r.body.exports).toHaveLength(50);
      expect(await prisma.output.count({ where: { jobId: id } })).toBe(51);
    },
  );

  it(
    'answers two starts of one job racing both with 200 and the ' + 'same body, and charges once',
    async () => {
      const account = await createAccount(stack, 50);
      const id = await uploadedJob(stack, account.key, clip25);
      const body = { model: 'service-light', background: { type: 'color', color: '#00FF00' } };
      const [a, b] = await Promise.all(
        [1, 2].map(() => api(stack, 'POST', `/v1/jobs/${id}/start`, { key: account.key, body })),
      );
      expect([a!.status, b!.status]).toEqual([200, 200]);
      expect(b!.body).toEqual(a!.body);
      expect(a!.body).toMatchObject({ id, status: 'processing', creditsUsed: 2 });
      expect((await credits(account.key)).remaining_credits).toBe(48);
      expect(
        (await prisma.creditEntry.findMany({ where: { jobId: id } })).map((e) => [
          e.kind,
          e.amount,
        ]),
      ).toEqual([['debit', -2]]);
      expect(await enqueued(stack, 'segment-video', id)).toBe(1);
    },
  );

  it('refuses a Lottie of a source over 60 s at start, before charging', async () => {
    const error = await refusedLongSource(stack, bob.key, tmp, 61, {
      background: { type: 'transparent', transparent_format: 'lottie' },
    });
    expect(error).toBe('lottie takes videos up to 60 seconds; this one is 61.0 s');
  });

  it('refuses to start a job whose video was not uploaded', async () => {
    const receipt = await createJob(stack, alice.key);
    const r = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
      key: alice.key,
      body: {},
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Upload the video before starting the job');
  });

  it('allows 3 processing starts per minute per key, then 429 with Retry-After', async () => {
    const account = await createAccount(stack, 100);
    const ids = await Promise.all([1, 2, 3, 4].map(() => uploadedJob(stack, account.key, clip25)));
    await roomInWindow(20);
    for (const id of ids.slice(0, 3)) {
      expect(
        (await api(stack, 'POST', `/v1/jobs/${id}/start`, { key: account.key, body: {} })).status,
      ).toBe(200);
    }
    const r = await api(stack, 'POST', `/v1/jobs/${ids[3]}/start`, { key: account.key, body: {} });
    expect(r.status).toBe(429);
    expect(typeof r.body.error).toBe('string');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('x-api-version')).toBe('1.6.0');
    expect(
      (await api(stack, 'GET', `/v1/jobs/${ids[3]}/status`, { key: account.key })).body.status,
    ).toBe('uploaded');
  });
});

describe('another account’s job is not found on every route', () => {
  it('answers 404 with the spec message', async () => {
    const id = await uploadedJob(stack, alice.key, clip25);
    const notFound = { error: 'Job not found or does not belong to user' };
    for (const prefix of ['/v1', '/api/v1']) {
      const calls = [
        api(stack, 'GET', `${prefix}/jobs/${id}/status`, { key: bob.key }),
        api(stack, 'POST', `${prefix}/jobs/${id}/start`, { key: bob.key, body: {} }),
        api(stack, 'GET', `${prefix}/webhooks/deliveries?video_id=${id}`, { key: bob.key }),
        api(stack, 'DELETE', `${prefix}/jobs/${id}`, { key: bob.key }),
        api(stack, 'GET', `${prefix}/jobs/not-a-uuid/status`, { key: bob.key }),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound);
        expect(r.headers.get('x-api-version')).toBe('1.6.0');
      }
    }
    expect((await api(stack, 'GET', `/v1/jobs/${id}/status`, { key: alice.key })).body.status).toBe(
      'uploaded',
    );
  });
});

describe('DELETE /v1/jobs/{id}', () => {
  it('deletes the row and the files, without a refund', async () => {
    const account = await createAccount(stack, 10);
    const id = await uploadedJob(stack, account.key, clip25);
    await api(stack, 'POST', `/v1/jobs/${id}/start`, {
      key: account.key,
      body: { model: 'service-light' },
    });
    expect((await storedKeys(stack, id)).length).toBeGreaterThan(0);
    const r = await api(stack, 'DELETE', `/api/v1/jobs/${id}`, { key: account.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id, message: 'Job deleted' });
    expect(await storedKeys(stack, id)).toEqual([]);
    expect((await api(stack, 'GET', `/v1/jobs/${id}/status`, { key: account.key })).status).toBe(
      404,
    );
    expect((await api(stack, 'DELETE', `/v1/jobs/${id}`, { key: account.key })).status).toBe(404);
    expect((await credits(account.key)).remaining_credits).toBe(8);
  });
});

describe('GET /v1/webhooks/deliveries and /v1/openapi', () => {
  it('needs video_id', async () => {
    const r = await api(stack, 'GET', '/v1/webhooks/deliveries', { key: alice.key });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Invalid video_id: video_id is required');
  });

  it('serves the OpenAPI YAML as a JSON string', async () => {
    const r = await api<string>(stack, 'GET', '/api/v1/openapi', { key: alice.key });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.body).toMatch(/^openapi: 3\.0\.3/);
    expect(r.body).toContain('/v1/jobs/{id}/start:');
  });

  it('serves the OpenAPI document without a key, under both prefixes', async () => {
    for (const path of ['/v1/openapi', '/api/v1/openapi']) {
      const r = await api<string>(stack, 'GET', path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-api-version')).toBe('1.6.0');
      // What its own entry in the document says it sends.
      expect(r.headers.get('x-ratelimit-limit')).toBe('100');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('100');
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      expect(r.body).toMatch(/^openapi: 3\.0\.3/);
    }
    expect((await api(stack, 'POST', '/v1/openapi')).status).toBe(405);
  });
});
