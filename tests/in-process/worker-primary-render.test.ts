import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir';
import type { Db } from '../../lib/db/client';
import { fromLavfi } from '../../lib/media/fixtures';
import {
  createAccount,
  stackDb,
  startStack,
  uploadedJob,
  runJobToCompletion,
  type Stack,
  type TestAccount,
} from './helpers';

// The primary output renders while the worker segments (lib/segment/render-while-segmenting.ts):
// it is completed by the segment job itself, with no render-output unit of its own.
let stack: Stack;
let account: TestAccount;
let prisma: Db;
const tmp = tempDir('primary');

beforeAll(async () => {
  // On, whatever this host's CPUs (`auto` turns it on with more than 2).
  stack = await startStack({ worker: true, env: { RENDER_WHILE_SEGMENTING: 'on' } });
  prisma = await stackDb(stack);
  account = await createAccount(stack, 20);
});
afterAll(() => stack?.stop());

describe('the primary output', () => {
  // service-human passes the filmed edge colour through; service-light's is estimated on the way.
  it.each(['service-human', 'service-light'] as const)(
    'is rendered while segmenting (%s): completed with its file and ' +
      'poster, never queued for a render of its own',
    async (model) => {
      const clip = await fromLavfi(
        path.join(tmp, `${model}.mp4`),
        'testsrc2=size=96x64:rate=10:duration=2',
        ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
      );
      const id = await uploadedJob(stack, account.key, clip);
      await runJobToCompletion(stack, account.key, id, { model });
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
