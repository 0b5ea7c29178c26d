import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  completedJob,
  createAccount,
  cutClip,
  grayFrames,
  hasTestdata,
  maskVersionFile,
  meanJ,
  remainingCredits,
  settled,
  stackDb,
  startStack,
  TESTDATA,
  testVideo,
  uploadedJob,
  type Stack,
  type TestAccount,
} from './helpers';

interface Refinement {
  refinement_id: string;
  job_id: string;
  status: string;
  op: string;
  model: string;
  version: number;
  credits_used: number;
  created_at: string;
  from_version: number;
  concepts: string[];
  error?: string;
}
interface Versions {
  active_version: number;
  versions: {
    version: number;
    status: string;
    source: string;
    active: boolean;
    refinement_id: string | null;
  }[];
}

/** Frames of a grey mask file (or ground-truth PNG sequence), one byte per pixel. */
const coverage = (frames: Uint8Array[]) =>
  frames.reduce((s, f) => s + f.filter((v) => v >= 128).length / f.length, 0) / frames.length;

// Mask refinement by text prompt as a client uses it: real server, worker, detector and SAM.
describe.skipIf(!hasTestdata)('refine-mask (needs ../shared/testdata)', () => {
  let stack: Stack;
  let owner: TestAccount;
  let other: TestAccount;
  let tmp: string;
  let car: string;

  const balance = (key = owner.key) => remainingCredits(stack, key);
  const refine = (
    jobId: string,
    body: unknown,
    headers: Record<string, string> = {},
    key = owner.key,
  ) =>
    api<Refinement & { error?: string; details?: string }>(
      stack,
      'POST',
      `/v1/jobs/${jobId}/refine-mask`,
      { key, body, headers },
    );
  const finished = (id: string) =>
    settled<Refinement>(stack, owner.key, `/v1/refinements/${id}`, { timeoutMs: 420_000 });
  const processed = (file: string, model: string, key = owner.key) => {
    const background = { type: 'transparent', transparent_format: 'webm_vp9' };
    return completedJob(stack, key, file, { model, background }, 400_000);
  };
  const maskFile = (jobId: string, version: number) => maskVersionFile(stack, jobId, version);

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-refine-'));
    stack = await startStack({ worker: true });
    [owner, other] = await Promise.all([createAccount(stack, 200), createAccount(stack, 20)]);
    // DAVIS car-shadow: no person, so service-human's matte is nearly empty.
    car = await processed(path.join(TESTDATA, 'davis/car-shadow/video.mp4'), 'service-human');
  });
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(
    'refuses bad requests with 400 before any charge, and another ' + "account's job with 404",
    async () => {
      const before = await balance();
      const cases: [unknown, Record<string, string>, RegExp][] = [
        [{}, {}, /prompt is required/],
        [{ prompt: {} }, {}, /prompt.text is required/],
        [{ prompt: { text: 'car '.repeat(126) } }, {}, /at most 500 characters/],
        [{ prompt: { text: 'a unicorn' } }, {}, /No known concept in "a unicorn"/],
        [
          { prompt: { text: 'car' }, model: 'service-human' },
          {},
          /supports text prompts: service-pro \(default\) or service-original/,
        ],
        [{ prompt: { text: 'car' }, model: 'nope' }, {}, /supports text prompts/],
        [{ prompt: { text: 'car' }, op: 'multiply' }, {}, /op must be "add" or "subtract"/],
        [{ prompt: { text: 'car', mode: 'image' } }, {}, /prompt.mode must be "text"/],
        [
          { prompt: { text: 'car' }, edge_cleanup: { enabled: true, size: 100 } },
          {},
          /128 to 1024, divisible by 8/,
        ],
        [
          { prompt: { text: 'car' }, edge_cleanup: { enabled: true, size: 1032 } },
          {},
          /128 to 1024, divisible by 8/,
        ],
        [
          { prompt: { text: 'car' }, edge_cleanup: { enabled: true, size: 500 } },
          {},
          /divisible by 8/,
        ],
        [
          { prompt: { text: 'car' } },
          { 'Idempotency-Key': 'has space' },
          /Idempotency-Key must be 1 to 128 printable ASCII/,
        ],
        [
          { prompt: { text: 'car' } },
          { 'Idempotency-Key': 'k'.repeat(129) },
          /Idempotency-Key must be/,
        ],
        [{ prompt: { text: 'car' } }, { 'Idempotency-Key': 'clé' }, /Idempotency-Key must be/],
      ];
      for (const [body, headers, error] of cases) {
        const r = await refine(car, body, headers);
        expect(r.status, `${JSON.stringify(body)} ${JSON.stringify(headers)}: ${r.text}`).toBe(400);
        expect(r.body.error).toMatch(error);
      }
      const unknown = await refine(car, { prompt: { text: 'unicorn' } });
      expect(unknown.body.details).toMatch(/person.*skin, clothes, hair.*dog.*toothbrush/s);
      const notCompleted = await uploadedJob(
        stack,
        owner.key,
        await cutClip(
          testVideo('liveportrait_d12_talking_glasses_512.mp4'),
          path.join(tmp, 'talk.mp4'),
          1,
        ),
      );
      const early = await refine(notCompleted, { prompt: { text: 'person' } });
      expect(early.status).toBe(400);
      expect(early.body.error).toMatch(/completed job/);
      const theirs = await refine(car, { prompt: { text: 'car' } }, {}, other.key);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ error: 'Job not found or does not belong to user' });
      expect(
        (await api(stack, 'GET', `/v1/jobs/${car}/mask-versions`, { key: other.key })).status,
      ).toBe(404);
      expect(await balance()).toBe(before);
    },
  );

  it(
    'adds "car" as a new active version (J ≥ 0.85), charges once, ' +
      'replays without charge and answers every 409',
    async () => {
      const before = await balance();
      const body = { op: 'add', model: 'service-original', prompt: { text: 'the car' } };
      const r = await refine(car, body, { 'Idempotency-Key': 'car-1' });
      expect(r.status, r.text).toBe(200);
      // 40 frames at 24 fps: ceil(1 credit/s × 1.67 s).
      expect(r.body).toMatchObject({
        job_id: car,
        status: 'queued',
        op: 'add',
        model: 'service-original',
        version: 2,
        credits_used: 2,
        from_version: 1,
        concepts: ['car'],
      });
      expect(Object.keys(r.body)).toEqual(
        expect.arrayContaining([
          'refinement_id',
          'job_id',
          'status',
          'op',
          'model',
          'version',
          'credits_used',
          'created_at',
        ]),
      );
      expect(await balance()).toBe(before - 2);

      const again = await refine(car, body, { 'Idempotency-Key': 'car-1' });
      expect(again.status).toBe(200);
      expect(again.body.refinement_id).toBe(r.body.refinement_id);
      const otherInputs = await refine(
        car,
        { ...body, op: 'subtract' },
        { 'Idempotency-Key': 'car-1' },
      );
      expect(otherInputs.status).toBe(409);
      expect(otherInputs.body.error).toMatch(
        /Idempotency-Key was already used with a different request/,
      );
      const second = await refine(car, { prompt: { text: 'person' } });
      expect(second.status).toBe(409);
      expect(second.body.error).toMatch(/Another refinement of this job is running/);
      const switched = await api(stack, 'POST', `/v1/jobs/${car}/mask-versions/1/activate`, {
        key: owner.key,
      });
      expect(switched.status).toBe(409);
      expect(await balance()).toBe(before - 2);

      const done = await finished(r.body.refinement_id);
      expect(done.status, `${done.error}\n${stack.logs()}`).toBe('completed');
      const versions = await api<Versions>(stack, 'GET', `/v1/jobs/${car}/mask-versions`, {
        key: owner.key,
      });
      expect(versions.body.active_version).toBe(2);
      expect(versions.body.versions.map((v) => [v.version, v.status, v.source, v.active])).toEqual([
        [1, 'completed', 'segmentation', false],
        [2, 'completed', 'refinement', true],
      ]);
      // A replay after it finished: its current status, still no new charge.
      const replay = await refine(car, body, { 'Idempotency-Key': 'car-1' });
      expect(replay.body).toMatchObject({
        refinement_id: r.body.refinement_id,
        status: 'completed',
      });
      expect(await balance()).toBe(before - 2);
      // The client refined from version 1, but 2 is active now.
      const stale = await refine(car, { ...body, from_version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatch(/active mask changed: it is version 2, not 1/);

      const gt = await grayFrames(path.join(TESTDATA, 'davis/car-shadow/masks/%05d.png'), 854, 480);
      const jBefore = meanJ(await grayFrames(await maskFile(car, 1), 854, 480), gt);
      const jAfter = meanJ(await grayFrames(await maskFile(car, 2), 854, 480), gt);
      expect(jBefore).toBeLessThan(0.3);
      expect(jAfter).toBeGreaterThanOrEqual(0.85);
    },
  );

  it('exports the refined mask by default and the old one with mask_version 1', async () => {
    const exportOf = async (body: Record<string, unknown>) => {
      const r = await api<{ export_id: string; mask_version: number }>(
        stack,
        'POST',
        `/v1/jobs/${car}/exports`,
        { key: owner.key, body: { format: 'mask_video', ...body } },
      );
      expect(r.status, r.text).toBe(200);
      const done = await settled<{
        status: string;
        output_url?: string;
        error?: string;
        mask_version: number;
      }>(stack, owner.key, `/v1/exports/${r.body.export_id}`, { timeoutMs: 180_000 });
      expect(done.status, done.error).toBe('completed');
      const file = path.join(tmp, `${r.body.export_id}.mp4`);
      fs.writeFileSync(file, Buffer.from(await (await fetch(done.output_url!)).arrayBuffer()));
      return { version: done.mask_version, cover: coverage(await grayFrames(file, 854, 480)) };
    };
    const active = await exportOf({});
    const first = await exportOf({ mask_version: 1 });
    expect(active.version).toBe(2);
    expect(first.version).toBe(1);
    expect(first.cover).toBeLessThan(0.02);
    expect(active.cover).toBeGreaterThan(0.04);
  });

  it(
    'refunds a refinement that fails, leaves a gap in the versions, ' +
      'and needs a new key after it',
    async () => {
      // An injected failure: the active version's stored file no longer decodes.
      const file = await maskFile(car, 2);
      const good = fs.readFileSync(file);
      fs.writeFileSync(file, Buffer.alloc(4096, 7));
      const before = await balance();
      const r = await refine(
        car,
        { model: 'service-original', prompt: { text: 'car' } },
        { 'Idempotency-Key': 'fails-1' },
      );
      expect(r.status, r.text).toBe(200);
      expect(r.body.version).toBe(3);
      expect(await balance()).toBe(before - 2);
      const done = await finished(r.body.refinement_id);
      fs.writeFileSync(file, good);
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/mask/i);
      expect(await balance()).toBe(before);
      const replay = await refine(
        car,
        { model: 'service-original', prompt: { text: 'car' } },
        { 'Idempotency-Key': 'fails-1' },
      );
      expect(replay.body).toMatchObject({ refinement_id: r.body.refinement_id, status: 'failed' });
      expect(await balance()).toBe(before);
      const versions = await api<Versions>(stack, 'GET', `/v1/jobs/${car}/mask-versions`, {
        key: owner.key,
      });
      expect(versions.body.active_version).toBe(2);
      expect(versions.body.versions.find((v) => v.version === 3)?.status).toBe('failed');
      const back = await api<Versions>(stack, 'POST', `/v1/jobs/${car}/mask-versions/1/activate`, {
        key: owner.key,
      });
      expect(back.status, back.text).toBe(200);
      expect(back.body.active_version).toBe(1);
    },
  );

  it('answers 402 Insufficient credits and leaves everything untouched', async () => {
    // Processing car-shadow with service-human costs 2 of the 3 credits; refining it needs 2.
    const poor = await createAccount(stack, 3);
    const job = await processed(
      path.join(TESTDATA, 'davis/car-shadow/video.mp4'),
      'service-human',
      poor.key,
    );
    expect(await balance(poor.key)).toBe(1);
    const broke = await refine(
      job,
      { model: 'service-original', prompt: { text: 'car' } },
      { 'Idempotency-Key': 'poor-1' },
      poor.key,
    );
    expect(broke.status).toBe(402);
    expect(broke.body).toEqual({ error: 'Insufficient credits' });
    expect(await balance(poor.key)).toBe(1);
    const prisma = await stackDb(stack);
    expect(await prisma.refinement.count({ where: { jobId: job } })).toBe(0);
    expect(await prisma.maskVersion.count({ where: { jobId: job } })).toBe(1);
    expect(
      (await api<Versions>(stack, 'GET', `/v1/jobs/${job}/mask-versions`, { key: poor.key })).body
        .active_version,
    ).toBe(1);
  });

  it('subtracts "bird" from DAVIS blackswan: the mask is nearly empty', async () => {
    const swan = await processed(path.join(TESTDATA, 'davis/blackswan/video.mp4'), 'service-light');
    const r = await refine(swan, {
      op: 'subtract',
      model: 'service-original',
      prompt: { text: 'birds' },
    });
    expect(r.status, r.text).toBe(200);
    const done = await finished(r.body.refinement_id);
    expect(done.status, done.error).toBe('completed');
    const before = coverage(await grayFrames(await maskFile(swan, 1), 854, 480));
    const after = coverage(await grayFrames(await maskFile(swan, 2), 854, 480));
    expect(before).toBeGreaterThan(0.05);
    expect(after).toBeLessThan(0.005);
  }, 900_000);

  it('adds "dog" to the woman service-human keeps on the dog clip', async () => {
    // Seconds 4 to 6.5, where the dog runs up to the woman.
    const clip = path.join(tmp, 'dog.mp4');
    await cutClip(testVideo('sam2_01_dog_and_woman_1280x720.mp4'), clip, 2.5, { start: 4 });
    const job = await processed(clip, 'service-human');
    const r = await refine(job, {
      model: 'service-original',
      prompt: { text: 'a puppy' },
      edge_cleanup: { enabled: true, size: 512 },
    });
    expect(r.status, r.text).toBe(200);
    const done = await finished(r.body.refinement_id);
    expect(done.status, done.error).toBe('completed');
    const base = await grayFrames(await maskFile(job, 1), 1280, 720);
    const refined = await grayFrames(await maskFile(job, 2), 1280, 720);
    expect(refined).toHaveLength(base.length);
    // What was added lies where the dog runs, below the woman's shoulders (y > 300 of 720); the
    // woman stays.
    let added = 0;
    let addedThere = 0;
    let kept = 0;
    let woman = 0;
    for (let f = 0; f < base.length; f++) {
      for (let i = 0; i < base[f]!.length; i++) {
        const y = Math.floor(i / 1280);
        if (base[f]![i]! >= 128) {
          woman++;
          if (refined[f]![i]! >= 100) kept++;
        } else if (refined[f]![i]! >= 128) {
          added++;
          if (y > 300) addedThere++;
        }
      }
    }
    expect(added / (base.length * 1280 * 720)).toBeGreaterThan(0.01);
    expect(addedThere / added).toBeGreaterThan(0.8);
    expect(kept / woman).toBeGreaterThan(0.97);
  }, 900_000);
});
