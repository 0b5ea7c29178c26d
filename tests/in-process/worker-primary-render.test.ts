import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import {
  api,
  createAccount,
  stackDb,
  startStack,
  uploadedJob,
  waitForJob,
  type Stack,
  type TestAccount,
} from './helpers';

// The primary output renders while the worker segments (lib/segment/render-while-segmenting.ts):
// it is completed by the segment job itself, with no render-output unit of its own.
const run = promisify(execFile);
let stack: Stack;
let account: TestAccount;
let prisma: Db;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-primary-'));
  // On, whatever this host's CPUs (`auto` turns it on with more than 2).
  stack = await startStack({ worker: true, env: { RENDER_WHILE_SEGMENTING: 'on' } });
  prisma = await stackDb(stack);
  account = await createAccount(stack, 20);
});
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the primary output', () => {
  // service-human passes the filmed edge colour through; service-light's is estimated on the way.
  it.each(['service-human', 'service-light'] as const)(
    'is rendered while segmenting (%s): completed with its file and poster, never queued for a render of its own',
    async (model) => {
      const clip = path.join(tmp, `${model}.mp4`);
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=96x64:rate=10:duration=2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        clip,
      ]);
      const id = await uploadedJob(stack, account.key, clip);
      expect(
        (
          await api(stack, 'POST', `/v1/jobs/${id}/start`, {
            key: account.key,
            body: { model },
          })
        ).status,
      ).toBe(200);
      const done = await waitForJob(stack, account.key, id);
      expect(done.status, done.message ?? '').toBe('completed');
      const primary = await prisma.output.findFirstOrThrow({
        where: { jobId: id, role: 'primary' },
      });
      expect(primary).toMatchObject({ status: 'completed', maskVersion: 1 });
      expect(primary.storageKey).toBeTruthy();
      expect(primary.posterKey).toBeTruthy();
      expect(
        await prisma.queueJob.count({ where: { payloadJson: { contains: primary.id } } }),
      ).toBe(0);
    },
  );
});
