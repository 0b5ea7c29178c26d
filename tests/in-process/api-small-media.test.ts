import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir';
import { fromLavfi } from '../../lib/media/fixtures';
import {
  api,
  createAccount,
  createJob,
  refusedUpload,
  remainingCredits,
  type Stack,
  startStack,
  storedKeys,
  type TestAccount,
  uploadedJob,
  runJobToCompletion,
} from './helpers';

// Media too small to matte is refused at upload, before anything is charged (lib/media/probe.ts,
// MIN_FRAME_SIDE); the smallest accepted size goes all the way through the worker.
let stack: Stack;
let account: TestAccount;
const tmp = tempDir('small');

/** A 1 s H.264 clip of `width`x`height` (4:4:4, so odd and tiny sizes encode). */
async function clip(width: number, height: number): Promise<string> {
  const file = path.join(tmp, `${width}x${height}.mp4`);
  await fromLavfi(file, 'testsrc2=size=64x64:rate=25:duration=1', [
    '-vf',
    `scale=${width}:${height}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv444p',
  ]);
  return file;
}

beforeAll(async () => {
  stack = await startStack({ worker: true });
  account = await createAccount(stack, 20);
});
afterAll(() => stack?.stop());

const remaining = () => remainingCredits(stack, account.key);

describe('media too small to matte', () => {
  it(
    'refuses a 1x1 and a 31x40 video at upload with a message ' +
      'naming the minimum, charging and keeping nothing',
    async () => {
      for (const [w, h] of [
        [1, 1],
        [31, 40],
      ] as const) {
        const receipt = await createJob(stack, account.key);
        const refused = await refusedUpload(stack, account.key, receipt, await clip(w, h));
        // On S3 the status call's reason adds what to do ("Upload the video again.").
        expect(refused.reason).toMatch(
          new RegExp(
            `^The video frame is ${w}x${h}; Keyout needs at least 32 pixels on each side\\.`,
          ),
        );
        if (stack.kind === 'embedded') expect(refused.status).toBe(400);
        expect(await storedKeys(stack, receipt.id)).toEqual([]);
        const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
          key: account.key,
          body: {},
        });
        expect(start.status).toBe(400);
        expect(start.body.error).toBe('Upload the video before starting the job');
      }
      expect(await remaining()).toBe(20);
    },
  );

  it('processes a 32x32 video, the smallest it takes', async () => {
    const id = await uploadedJob(stack, account.key, await clip(32, 32));
    await runJobToCompletion(stack, account.key, id, { model: 'service-light' });
    expect(await remaining()).toBe(19);
  });
});
