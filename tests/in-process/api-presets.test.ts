import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir';
import {
  api,
  createAccount,
  createKey,
  remainingCredits,
  type Stack,
  startStack,
  syntheticClip,
  type TestAccount,
  uploadedJob,
  runJobToCompletion,
} from './helpers';

let stack: Stack;
let account: TestAccount;
const tmp = tempDir('presets');
let clip: string;

beforeAll(async () => {
  [stack, clip] = await Promise.all([
    startStack({ worker: true }),
    syntheticClip(path.join(tmp, 'clip.mp4'), { seconds: 1 }),
  ]);
  account = await createAccount(stack, 100);
});
afterAll(() => stack?.stop());

const credits = () => remainingCredits(stack, account.key);

/**
 * Starts a job on service-light with `preset` and returns the engine settings its segmentation
 * ran with. Each start goes through a key of its own: a key may start 3 jobs a minute.
 */
async function settingsFor(preset: string | null) {
  const key = await createKey(stack, account.email);
  const id = await uploadedJob(stack, key, clip);
  const before = await credits();
  await runJobToCompletion(stack, key, id, {
    model: 'service-light',
    background: { type: 'transparent', options: { preset } },
  });
  // The worker logs the engine settings each job's segmentation ran with.
  const line = stack
    .logs()
    .split('\n')
    .find((l) => l.includes(`job ${id} segmented with `));
  expect(line, stack.logs()).toBeDefined();
  const ran = JSON.parse(line!.slice(line!.indexOf('{'))) as {
    workSide: number;
    keyInterval: number;
    guided: unknown;
  };
  return {
    charged: before - (await credits()),
    workSide: ran.workSide,
    interval: ran.keyInterval,
    guided: ran.guided,
  };
}

describe('background.options.preset', () => {
  it('refuses an unknown preset with 400 naming the valid ones, before any charge', async () => {
    const id = await uploadedJob(stack, account.key, clip);
    const before = await credits();
    const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
      key: account.key,
      body: { background: { type: 'transparent', options: { preset: 'ultra' } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      'background.options.preset must be one of: balanced, fast, fine-edges',
    );
    expect(await credits()).toBe(before);
    expect(
      (await api(stack, 'GET', `/v1/jobs/${id}/status`, { key: account.key })).body.status,
    ).toBe('uploaded');
  });

  it('changes what the engine runs, at the model’s price', async () => {
    const none = await settingsFor(null);
    const balanced = await settingsFor('balanced');
    const fast = await settingsFor('fast');
    const fine = await settingsFor('fine-edges');
    // service-light: the engine's light tier (engine/tiers.ts), 0.75 credits a second.
    expect(none).toMatchObject({ workSide: 320, interval: 32, guided: { radius: 2 } });
    expect(balanced).toEqual(none);
    expect(fast).toMatchObject({ workSide: 240, interval: 64 });
    expect(fine).toMatchObject({ workSide: 480, interval: 32, guided: { subsample: 1 } });
    for (const run of [balanced, fast, fine]) expect(run.charged).toBe(none.charged);
  });
});
