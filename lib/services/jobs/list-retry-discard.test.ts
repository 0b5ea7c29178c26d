import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpOwnerAndMember } from '../../../tests/support/owner-and-member';
import { probedClipJob, tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { storage, storageKeys } from '../../storage';
import { quoteJobs } from '../credits/quote-job';
import { discardUnstartedJob } from './discard-job';
import { listJobs } from './list-jobs';
import { retryJob, startOptionsOf } from './retry-job';
import { defaultPorts } from '../ports';

const dataDir = tempDatabase('jobs');

describe('jobs', () => {
  const ids = { owner: '', member: '' };
  beforeAll(async () => {
    const { owner, member } = await signUpOwnerAndMember();
    if (!owner.ok || !member.ok) throw new Error('sign-up failed');
    [ids.owner, ids.member] = [owner.userId, member.userId];
    await db().job.create({
      data: { userId: member.userId, filename: 'talk.mp4', status: 'completed' },
    });
  });

  it(
    'quotes exactly what start-job will charge, with its parts, and ' + 'filters the list',
    async () => {
      const job = await probedClipJob(ids.owner, { status: 'uploaded', lengthSeconds: 7.32 });
      const fast = await probedClipJob(ids.owner, {
        filename: 'fast.mp4',
        status: 'uploaded',
        fps: 60,
      });
      expect(
        await quoteJobs(defaultPorts, ids.owner, [job.id], { model: 'service-human', blur: false }),
      ).toMatchObject({ credits: 6, balance: 0, modelRate: 0.75, blurRate: 0 });
      expect(
        (await quoteJobs(defaultPorts, ids.owner, [job.id], { model: 'service-pro', blur: true }))
          .credits,
      ).toBe(30);
      // Several jobs: the sum of each one's own rounded charge; 60 fps costs twice per second.
      const both = await quoteJobs(defaultPorts, ids.owner, [job.id, fast.id], {
        model: 'service-original',
        blur: false,
      });
      expect(both.jobs.map((j) => [j.credits, j.fpsMultiplier])).toEqual([
        [8, 1],
        [4, 2],
      ]);
      expect(both.credits).toBe(12);
      expect(both.creditCents).toEqual({ min: 8, max: 10 });
      await expect(
        quoteJobs(defaultPorts, ids.member, [job.id], { model: 'service-human', blur: false }),
      ).rejects.toThrow('not found');

      // Jobs never started are kept out of the default list and shown by "Not started".
      expect((await listJobs(defaultPorts, ids.owner, {})).jobs).toEqual([]);
      expect(
        (await listJobs(defaultPorts, ids.owner, { status: 'not-started' })).jobs
          .map((j) => j.filename)
          .sort(),
      ).toEqual(['clip.mp4', 'fast.mp4']);
      expect((await listJobs(defaultPorts, ids.owner, { status: 'failed' })).jobs).toEqual([]);
      expect(
        (await listJobs(defaultPorts, ids.owner, { status: 'not-started', query: 'cli' })).jobs,
      ).toHaveLength(1);
      expect((await listJobs(defaultPorts, ids.member, {})).jobs.map((j) => j.filename)).toEqual([
        'talk.mp4',
      ]);
    },
  );

  it(
    'tries a failed job again as a new uploaded job with a copy of ' + 'its video and its options',
    async () => {
      const failed = await probedClipJob(ids.owner, {
        filename: 'broken.mp4',
        status: 'failed',
        lengthSeconds: 3,
        frameCount: 75,
        model: 'service-light',
        backgroundJson: JSON.stringify({ type: 'color', color: '#112233' }),
        message: 'boom',
      });
      const src = path.join(dataDir, 'src.mp4');
      fs.writeFileSync(src, 'video bytes');
      await storage().putFile(storageKeys.source(failed.id, 'test', 'mp4'), src);
      await db().job.update({
        where: { id: failed.id },
        data: { sourceKey: storageKeys.source(failed.id, 'test', 'mp4') },
      });

      const { jobId } = await retryJob(defaultPorts, ids.owner, failed.id);
      const fresh = await db().job.findUniqueOrThrow({ where: { id: jobId } });
      expect(fresh).toMatchObject({
        status: 'uploaded',
        filename: 'broken.mp4',
        lengthSeconds: 3,
        fps: 25,
        frameCount: 75,
        model: null,
      });
      expect(
        fs.readFileSync(await storage().localFile(fresh.sourceKey!, os.tmpdir()), 'utf8'),
      ).toBe('video bytes');
      expect(await startOptionsOf(defaultPorts, ids.owner, failed.id)).toEqual({
        model: 'service-light',
        background: { type: 'color', color: '#112233' },
        webhookUrl: null,
      });
      expect(await db().job.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
        status: 'failed',
        message: 'boom',
      });

      await expect(retryJob(defaultPorts, ids.member, failed.id)).rejects.toThrow('not found');
      expect(await startOptionsOf(defaultPorts, ids.member, failed.id)).toBeNull();
      await expect(retryJob(defaultPorts, ids.owner, jobId)).rejects.toThrow('Only a failed job');

      // Discarding removes a job that never started, files included, and leaves others alone.
      await discardUnstartedJob(defaultPorts, ids.member, jobId);
      expect(await db().job.findUnique({ where: { id: jobId } })).not.toBeNull();
      await discardUnstartedJob(defaultPorts, ids.owner, jobId);
      expect(await db().job.findUnique({ where: { id: jobId } })).toBeNull();
      expect(await storage().stat(fresh.sourceKey!)).toBeNull();
      await discardUnstartedJob(defaultPorts, ids.owner, failed.id);
      expect(await db().job.findUnique({ where: { id: failed.id } })).not.toBeNull();
    },
  );
});
