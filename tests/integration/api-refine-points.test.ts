import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  completedJob,
  createAccount,
  grayFrames,
  hasTestdata,
  maskVersionFile,
  meanJ,
  remainingCredits,
  settled,
  stackDb,
  startStack,
  TESTDATA,
  type Stack,
  type TestAccount,
} from './helpers';

interface Refinement {
  refinement_id: string;
  status: string;
  version: number;
  credits_used: number;
  from_version: number;
  prompt: Record<string, unknown>;
  concepts: string[];
  error?: string;
  details?: string;
}

const W = 854;
const H = 480;
/** car-shadow runs at 24 fps: the middle of frame 20's display interval. */
const FRAME_20 = 20.5 / 24;
const ON_CAR = { x: 380, y: 200 };
const REAR_WHEEL = { x: 422, y: 250 };
const FRONT_WHEEL = { x: 287, y: 243 };

// Click prompts (prompt.mode "points", an extension) as a client uses them, on DAVIS car-shadow
// (40 frames, 1.7 s): real server, worker, SAM, the same service and rules as text prompts.
describe.skipIf(!hasTestdata)('refine-mask by clicks (needs ../shared/testdata)', () => {
  let stack: Stack;
  let owner: TestAccount;
  let other: TestAccount;
  let car: string;
  let gt: Uint8Array[];

  const balance = () => remainingCredits(stack, owner.key);
  const refine = (body: unknown, headers: Record<string, string> = {}, key = owner.key) =>
    api<Refinement>(stack, 'POST', `/v1/jobs/${car}/refine-mask`, { key, body, headers });
  const finished = (id: string) =>
    settled<Refinement>(stack, owner.key, `/v1/refinements/${id}`, { timeoutMs: 420_000 });
  const mask = async (version: number) =>
    grayFrames(await maskVersionFile(stack, car, version), W, H);

  beforeAll(async () => {
    stack = await startStack({ worker: true });
    [owner, other] = await Promise.all([createAccount(stack, 20), createAccount(stack, 20)]);
    // No person to speak of in car-shadow: service-human's matte is nearly empty.
    const carShadow = path.join(TESTDATA, 'davis/car-shadow/video.mp4');
    car = await completedJob(stack, owner.key, carShadow, { model: 'service-human' }, 400_000);
    gt = await grayFrames(path.join(TESTDATA, 'davis/car-shadow/masks/%05d.png'), W, H);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it(
    'refuses every bad click prompt with 400 before any charge, and ' +
      "another account's job with 404",
    async () => {
      const before = await balance();
      const click = (over: Record<string, unknown>) => ({
        model: 'service-original',
        prompt: { mode: 'points', time: 0.5, points: [{ ...ON_CAR, include: true }], ...over },
      });
      const twentyOne = Array.from({ length: 21 }, (_, i) => ({ x: 10 * i, y: 10, include: true }));
      const cases: [unknown, RegExp][] = [
        [
          { prompt: { mode: 'clicks', points: [ON_CAR] } },
          /prompt.mode must be "text" or "points"/,
        ],
        [click({ time: undefined }), /prompt.time is required/],
        [click({ time: '0.5' }), /prompt.time is required/],
        [click({ time: -1 }), /prompt.time must be ≥ 0 seconds/],
        [
          click({ time: 2 }),
          /prompt.time must be within the video: at least 0 and under 1.667 seconds/,
        ],
        [click({ points: undefined }), /prompt.points must be a list of 1 to 20 points/],
        [click({ points: [] }), /prompt.points must be a list of 1 to 20 points/],
        [click({ points: twentyOne }), /prompt.points must be a list of 1 to 20 points/],
        [click({ points: [{ x: 10 }] }), /prompt.points\[\].x and .y must be numbers ≥ 0/],
        [click({ points: [{ x: -1, y: 5 }] }), /prompt.points\[\].x and .y must be numbers ≥ 0/],
        [click({ points: [{ x: 'a', y: 5 }] }), /prompt.points\[\].x and .y must be numbers ≥ 0/],
        [
          click({ points: [{ ...ON_CAR, include: 'yes' }] }),
          /prompt.points\[\].include must be true/,
        ],
        [
          click({ points: [{ ...ON_CAR, include: false }] }),
          /at least one point with include: true/,
        ],
        [
          click({ points: [ON_CAR, { x: 900, y: 10 }] }),
          /prompt.points\[1\] is outside the picture/,
        ],
        [
          { ...click({}), model: 'service-human' },
          /supports text prompts: service-pro \(default\) or service-original/,
        ],
        [{ ...click({}), op: 'invert' }, /op must be "add" or "subtract"/],
      ];
      for (const [body, error] of cases) {
        const r = await refine(body);
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
        expect(r.body.error).toMatch(error);
      }
      const theirs = await refine(click({}), {}, other.key);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ error: 'Job not found or does not belong to user' });
      expect(await balance()).toBe(before);
      const prisma = await stackDb(stack);
      expect(await prisma.refinement.count({ where: { jobId: car } })).toBe(0);
    },
  );

  it(
    'adds the clicked car through the whole clip (J ≥ 0.85), ' +
      'charges once, replays without charge and answers the 409s',
    async () => {
      const before = await balance();
      const body = {
        op: 'add',
        model: 'service-original',
        prompt: { mode: 'points', time: FRAME_20, points: [ON_CAR] },
      };
      const r = await refine(body, { 'Idempotency-Key': 'click-1' });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        status: 'queued',
        version: 2,
        from_version: 1,
        credits_used: 2,
        concepts: [],
      });
      expect(r.body.prompt).toEqual({
        mode: 'points',
        time: FRAME_20,
        frame: 20,
        points: [{ ...ON_CAR, include: true }],
      });
      expect(await balance()).toBe(before - 2);

      // The defaults filled in make the same request: a replay.
      const same = await refine(
        { ...body, prompt: { ...body.prompt, points: [{ ...ON_CAR, include: true }] } },
        { 'Idempotency-Key': 'click-1' },
      );
      expect(same.status).toBe(200);
      expect(same.body.refinement_id).toBe(r.body.refinement_id);
      const moved = await refine(
        { ...body, prompt: { ...body.prompt, points: [{ x: 381, y: 200 }] } },
        { 'Idempotency-Key': 'click-1' },
      );
      expect(moved.status).toBe(409);
      expect(moved.body.error).toMatch(/Idempotency-Key was already used with a different request/);
      const second = await refine({
        ...body,
        prompt: { mode: 'points', time: 0, points: [ON_CAR] },
      });
      expect(second.status).toBe(409);
      expect(second.body.error).toMatch(/Another refinement of this job is running/);
      expect(await balance()).toBe(before - 2);

      const done = await finished(r.body.refinement_id);
      expect(done.status, `${done.error}\n${stack.logs()}`).toBe('completed');
      const replay = await refine(body, { 'Idempotency-Key': 'click-1' });
      expect(replay.body).toMatchObject({
        refinement_id: r.body.refinement_id,
        status: 'completed',
      });
      expect(await balance()).toBe(before - 2);
      const stale = await refine({ ...body, from_version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatch(/active mask changed: it is version 2, not 1/);

      const [v1, v2] = [await mask(1), await mask(2)];
      expect(v2).toHaveLength(40);
      expect(meanJ(v1, gt)).toBeLessThan(0.3);
      // The car is found on frames 0-19 (tracked backwards from the click) as on 20-39.
      expect(meanJ(v2.slice(0, 20), gt.slice(0, 20))).toBeGreaterThanOrEqual(0.85);
      expect(meanJ(v2, gt)).toBeGreaterThanOrEqual(0.85);
    },
  );

  it('subtracts the clicked car but not the excluded wheels', async () => {
    const r = await refine({
      op: 'subtract',
      model: 'service-original',
      prompt: {
        mode: 'points',
        time: FRAME_20,
        points: [ON_CAR, { ...REAR_WHEEL, include: false }, { ...FRONT_WHEEL, include: false }],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ version: 3, from_version: 2 });
    const done = await finished(r.body.refinement_id);
    expect(done.status, done.error).toBe('completed');
    const v3 = await mask(3);
    const at = (frame: number, p: { x: number; y: number }) => v3[frame]![p.y * W + p.x]!;
    // On the clicked frame the body is gone and the wheels, left out of the object, stay.
    expect(at(20, ON_CAR)).toBeLessThan(40);
    expect(at(20, REAR_WHEEL)).toBeGreaterThanOrEqual(128);
    expect(at(20, FRONT_WHEEL)).toBeGreaterThanOrEqual(128);
    // Through the clip most of the car is taken out, the wheels' part is kept.
    const j = meanJ(v3, gt);
    expect(j).toBeLessThan(0.6);
    expect(j).toBeGreaterThan(0.1);
  });
});
