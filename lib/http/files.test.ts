import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetEnvForTests } from '../env';
import { createJob } from '../services/jobs/create-job';
import { receiveUpload } from './files';
import { defaultPorts } from '../services/ports';

// The signed upload PUT as the route handler gets it, against a real SQLite database and local
// storage in a temp DATA_DIR, with a small upload limit so no test needs a gigabyte.
const LIMIT = 64 * 1024;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-files-'));

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  process.env.MAX_UPLOAD_BYTES = String(LIMIT);
  resetEnvForTests();
});
afterAll(async () => {
  delete process.env.MAX_UPLOAD_BYTES;
  await db().$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A body that would send `total` bytes, counting what the server actually read. */
function countedBody(total: number) {
  const read = { bytes: 0 };
  const chunk = new Uint8Array(16 * 1024);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (read.bytes >= total) return c.close();
      read.bytes += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
  return { body, read };
}

async function newJob() {
  const user = await db().user.create({ data: { email: `u${Math.random()}@example.com` } });
  const receipt = (await createJob(defaultPorts, user.id, {
    filename: 'clip.mp4',
    content_type: 'video/mp4',
  })) as { id: string; upload_url: string };
  return { ...receipt, key: new URL(receipt.upload_url).pathname.replace(/^\/files\//, '') };
}

const put = (url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'PUT', body, headers, duplex: 'half' } as RequestInit);

/** Every file but the database and the instance secret: uploads, partial or whole. */
const storedFiles = () =>
  fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('keyout.db') && e.name !== 'secret');

describe('receiveUpload refusals', () => {
  it(
    'answers a PUT declaring far more than the limit with 413 in ' +
      'the error body, reads little and stores nothing',
    async () => {
      const job = await newJob();
      const { body, read } = countedBody(2 * 1024 ** 3);
      const res = await receiveUpload(
        put(job.upload_url, body, { 'Content-Length': String(2 * 1024 ** 3) }),
        job.key,
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        error: 'File too large',
        details: `The file is ${2 * 1024 ** 3} bytes; the limit is ${LIMIT} bytes.`,
      });
      // At most what discardBody reads of a refused body (1 MiB), never the declared 2 GiB.
      expect(read.bytes).toBeLessThanOrEqual(1024 * 1024 + 16 * 1024);
      expect(storedFiles()).toEqual([]);
      expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe('created');
    },
  );

  it(
    'answers a PUT after the job has started with 409 in the error ' +
      'body and leaves the job as it was',
    async () => {
      const job = await newJob();
      await db().job.update({ where: { id: job.id }, data: { status: 'processing' } });
      const { body } = countedBody(LIMIT / 2);
      const res = await receiveUpload(put(job.upload_url, body), job.key);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: 'The job has already been started; its video cannot be replaced',
      });
      expect(storedFiles()).toEqual([]);
      expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe(
        'processing',
      );
    },
  );

  it(
    'answers a chunked PUT over the limit with 413 once the counter ' +
      'passes it, and keeps nothing',
    async () => {
      const job = await newJob();
      const { body } = countedBody(LIMIT * 4);
      const res = await receiveUpload(put(job.upload_url, body), job.key);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: string }).error).toBe('File too large');
      expect(storedFiles()).toEqual([]);
      expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe('created');
    },
  );
});
