import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { probedClipJob, tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { storage, storageKeys } from '../../storage';
import { deleteJob } from '../jobs/delete-job';
import { startJob } from '../jobs/start-job';
import { grantCredits } from '../../billing/ledger';
import { MAX_BACKGROUND_BYTES, NOT_AN_IMAGE, uploadBackground } from './upload-background';
import { refusal } from '../../../tests/support/refusal';
import { defaultPorts } from '../ports';

// A real SQLite database and local storage in a temp DATA_DIR, real ffprobe.
const dataDir = tempDatabase('bg-upload');

const media = (name: string) => path.join(dataDir, name);
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

let owner: string;
let other: string;

const uploadedJob = (userId = owner) =>
  probedClipJob(userId, { status: 'uploaded', sourceKey: 'jobs/x/source.mp4' });

const upload = (userId: string, jobId: string, file: string) =>
  uploadBackground(defaultPorts, userId, jobId, fs.createReadStream(file), {
    contentLength: fs.statSync(file).size,
  });

beforeAll(async () => {
  owner = (await db().user.create({ data: { email: 'owner@example.com' } })).id;
  other = (await db().user.create({ data: { email: 'other@example.com' } })).id;
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=64x48', '-frames:v', '1', media('red.png'));
  ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=64x48', '-frames:v', '1', media('blue.jpg'));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=64x48:d=1', '-pix_fmt', 'yuv420p', media('clip.mp4'));
  // A PNG signature followed by garbage: passes the sniff, fails ffprobe.
  fs.writeFileSync(
    media('fake.png'),
    Buffer.concat([fs.readFileSync(media('red.png')).subarray(0, 16), Buffer.alloc(4096, 7)]),
  );
});
describe('uploadBackground', () => {
  it('stores a PNG in the job’s folder, and a JPEG uploaded next replaces it', async () => {
    const job = await uploadedJob();
    const png = await upload(owner, job.id, media('red.png'));
    expect(png).toEqual({ key: storageKeys.background(job.id, 'png'), width: 64, height: 48 });
    expect((await storage().stat(png.key))?.bytes).toBe(fs.statSync(media('red.png')).size);

    const jpg = await upload(owner, job.id, media('blue.jpg'));
    expect(jpg.key).toBe(storageKeys.background(job.id, 'jpg'));
    expect(await storage().stat(png.key)).toBeNull();

    await deleteJob(defaultPorts, owner, job.id);
    expect(await storage().stat(jpg.key)).toBeNull();
  });

  it('refuses what is not one still image, by its bytes and by ffprobe', async () => {
    const job = await uploadedJob();
    for (const file of ['clip.mp4', 'fake.png']) {
      const e = await refusal(upload(owner, job.id, media(file)));
      expect(e.kind).toBe('invalid');
      expect(e.message).toBe(NOT_AN_IMAGE);
    }
    expect(
      (await refusal(uploadBackground(defaultPorts, owner, job.id, Readable.from([])))).message,
    ).toBe('The background image is empty');
    for (const ext of ['png', 'jpg', 'webp'] as const)
      expect(await storage().stat(storageKeys.background(job.id, ext))).toBeNull();
  });

  it('stops reading past 20 MB, declared or not', async () => {
    const job = await uploadedJob();
    const declared = await refusal(
      uploadBackground(defaultPorts, owner, job.id, Readable.from([Buffer.alloc(10)]), {
        contentLength: MAX_BACKGROUND_BYTES + 1,
      }),
    );
    expect(declared.kind).toBe('too_large');
    const chunk = Buffer.alloc(1024 * 1024);
    const streamed = await refusal(
      uploadBackground(
        defaultPorts,
        owner,
        job.id,
        Readable.from(Array.from({ length: 21 }, () => chunk)),
      ),
    );
    expect(streamed.kind).toBe('too_large');
    expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('answers another account’s job, or a started one, without storing anything', async () => {
    const job = await uploadedJob();
    expect((await refusal(upload(other, job.id, media('red.png')))).kind).toBe('not_found');
    await db().job.update({ where: { id: job.id }, data: { status: 'processing' } });
    expect((await refusal(upload(owner, job.id, media('red.png')))).kind).toBe('conflict');
    expect(await storage().stat(storageKeys.background(job.id, 'png'))).toBeNull();
  });
});

describe('startJob with an uploaded background', () => {
  it('accepts only the job’s own stored image, and stores the key in the recipe', async () => {
    await grantCredits(owner, 100, 'grant', 'test');
    const job = await uploadedJob();
    const otherJob = await uploadedJob();
    const theirs = await upload(owner, otherJob.id, media('red.png'));
    const request = (key: string) => ({
      model: 'service-light' as const,
      background: {
        type: 'composition' as const,
        composition: { background_key: key, background_type: 'image' as const },
      },
    });
    // Another job's image, and this job's key before anything was uploaded.
    for (const key of [theirs.key, storageKeys.background(job.id, 'png')]) {
      expect((await refusal(startJob(defaultPorts, owner, job.id, request(key)))).message).toBe(
        'The uploaded background image was not found',
      );
    }
    const mine = await upload(owner, job.id, media('red.png'));
    const started = await startJob(defaultPorts, owner, job.id, request(mine.key));
    expect(started.creditsUsed).toBeGreaterThan(0);
    const output = await db().output.findFirstOrThrow({
      where: { jobId: job.id, role: 'primary' },
    });
    expect(JSON.parse(output.recipeJson!)).toMatchObject({
      kind: 'composition',
      background: { key: mine.key },
    });
  });
});
