import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLavfi } from '../../lib/media/fixtures';
import { rawFrame } from '../support/frames';
import {
  api,
  createAccount,
  cutClip,
  hasTestdata,
  stackDb,
  startComposition,
  startStack,
  syntheticClip,
  testVideo,
  uploadedJob,
  waitForJob,
  type Stack,
} from './helpers';

/**
 * A composition background uploaded from the dashboard (POST /jobs/<id>/background with the
 * session cookie) lands in the job's own storage, the start names its key (as the dashboard's
 * start action does: DashboardStartRequest → startJob), and the worker reads it through storage:
 * where the mask says background, the output frame shows the uploaded image's colour.
 */
const MAGENTA = [255, 0, 255];

let stack: Stack;
let key: string;
let cookie: string;
let otherCookie: string;
let clip: string;
let png: string;

async function sessionCookie(email: string): Promise<string> {
  const db = await stackDb(stack);
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  const sessionToken = randomBytes(32).toString('base64url');
  await db.session.create({
    data: { sessionToken, userId: user.id, expires: new Date(Date.now() + 3600_000) },
  });
  return `keyout.session-token=${sessionToken}`;
}

const postBackground = (jobId: string, body: Buffer, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}/jobs/${jobId}/background`, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      'Content-Type': 'image/png',
      'Sec-Fetch-Site': 'same-origin',
      ...headers,
    },
    body: new Uint8Array(body),
  });

/** The first frame at a URL as raw bytes (rgb24 or gray) at w×h. */
async function firstFrameOf(
  url: string,
  w: number,
  h: number,
  pixFmt: 'rgb24' | 'gray',
): Promise<Buffer> {
  const file = path.join(stack.dataDir, `frame-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
  return rawFrame(['-i', file], 0, pixFmt, `scale=${w}:${h}:flags=neighbor`);
}

beforeAll(async () => {
  stack = await startStack({ worker: true });
  png = path.join(stack.dataDir, 'magenta.png');
  await fromLavfi(png, 'color=c=magenta:s=320x240', ['-frames:v', '1']);
  const account = await createAccount(stack, 100);
  key = account.key;
  cookie = await sessionCookie(account.email);
  otherCookie = await sessionCookie((await createAccount(stack, 0)).email);
  if (hasTestdata)
    clip = await cutClip(
      testVideo('liveportrait_d12_talking_glasses_512.mp4'),
      path.join(stack.dataDir, 'portrait.mp4'),
      1,
    );
});
afterAll(async () => {
  await stack?.stop();
});

describe('background image uploaded from the dashboard', () => {
  it.skipIf(!hasTestdata)(
    'renders the job over the uploaded image, read from storage',
    async () => {
      const id = await uploadedJob(stack, key, clip);
      const res = await postBackground(id, fs.readFileSync(png));
      const stored = (await res.json()) as { key: string; width: number; height: number };
      expect(res.status, JSON.stringify(stored)).toBe(200);
      expect(stored).toEqual({ key: `jobs/${id}/background.png`, width: 320, height: 240 });

      // What the dashboard's start action does with the form's request.
      Object.assign(process.env, stack.env);
      const { DashboardStartRequest } = await import('../../lib/schemas/jobs');
      const { startJob } = await import('../../lib/services/jobs/start-job');
      const { defaultPorts } = await import('../../lib/services/ports');
      const db = await stackDb(stack);
      const userId = (await db.job.findUniqueOrThrow({ where: { id } })).userId;
      const request = DashboardStartRequest.parse({
        model: 'service-light',
        background: {
          type: 'composition',
          composition: {
            background_key: stored.key,
            background_type: 'image',
            export_format: 'mp4',
          },
        },
      });
      const before = (
        await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })
      ).body.remaining_credits;
      const started = await startJob(defaultPorts, userId, id, request);
      // The same price as any composition: the model's rate for the clip's length, nothing for the
      // upload.
      const { priceJob } = await import('../../lib/billing/pricing');
      const job = await db.job.findUniqueOrThrow({ where: { id } });
      expect(started.creditsUsed).toBe(
        priceJob({ model: 'service-light', durationSeconds: job.lengthSeconds!, fps: job.fps! }),
      );
      expect(
        (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })).body
          .remaining_credits,
      ).toBe(before - started.creditsUsed);

      const status = await waitForJob(stack, key, id);
      expect(status.status, `${status.message}\n${stack.logs()}`).toBe('completed');
      const [w, h] = [64, 64];
      const frame = await firstFrameOf(String(status.processed_video_url), w, h, 'rgb24');
      const mask = await firstFrameOf(String(status.processed_mask_url), w, h, 'gray');
      const near = (i: number, rgb: number[]) =>
        rgb.every((c, k) => Math.abs(frame[i * 3 + k]! - c) < 48);
      const background = [...mask.keys()].filter((i) => mask[i]! < 8);
      const subject = [...mask.keys()].filter((i) => mask[i]! > 247);
      expect(background.length).toBeGreaterThan(w * h * 0.1);
      expect(subject.length).toBeGreaterThan(w * h * 0.1);
      expect(background.filter((i) => near(i, MAGENTA)).length / background.length).toBeGreaterThan(
        0.95,
      );
      expect(subject.filter((i) => near(i, MAGENTA)).length / subject.length).toBeLessThan(0.05);

      // Deleting the job deletes the uploaded image with it.
      expect(fs.existsSync(path.join(stack.dataDir, 'files', stored.key))).toBe(true);
      expect((await api(stack, 'DELETE', `/v1/jobs/${id}`, { key })).status).toBe(200);
      expect(fs.existsSync(path.join(stack.dataDir, 'files', stored.key))).toBe(false);
    },
  );

  it('refuses what is not an image, other accounts, other sites and the public API', async () => {
    const id = await uploadedJob(stack, key, await cutOrSynthetic());
    const notImage = await postBackground(id, Buffer.from('<!doctype html><title>hi</title>'));
    expect(notImage.status).toBe(400);
    expect(await notImage.json()).toEqual({
      error: 'The background must be a single PNG, JPEG or WebP image.',
    });
    expect((await postBackground(id, fs.readFileSync(png), { Cookie: otherCookie })).status).toBe(
      404,
    );
    expect(
      (await postBackground(id, fs.readFileSync(png), { 'Sec-Fetch-Site': 'cross-site' })).status,
    ).toBe(403);
    const anonymous = await fetch(`${stack.baseUrl}/jobs/${id}/background`, {
      method: 'POST',
      body: new Uint8Array(fs.readFileSync(png)),
      redirect: 'manual',
    });
    expect(anonymous.status).toBeGreaterThanOrEqual(300);
    expect(anonymous.status).not.toBe(200);

    // Stored for the job, but the public API has no key form: it still asks for a URL.
    expect((await postBackground(id, fs.readFileSync(png))).status).toBe(200);
    const started = await startComposition(stack, key, id, {
      background_key: `jobs/${id}/background.png`,
    });
    expect(started.status).toBe(400);
    expect(started.text).toContain('background_url');
  });
});

function cutOrSynthetic(): Promise<string> {
  return clip ? Promise.resolve(clip) : syntheticClip(path.join(stack.dataDir, 'synthetic.mp4'));
}
