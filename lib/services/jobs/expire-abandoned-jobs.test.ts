import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { storage, storageKeys } from '../../storage';
import { defaultPorts } from '../ports';
import { expireAbandonedJobs } from './expire-abandoned-jobs';

const dataDir = tempDatabase('expire');

describe('expireAbandonedJobs', () => {
  it('deletes jobs never started after their time, files included, and nothing else', async () => {
    const user = await db().user.create({ data: { email: 'a@example.com' } });
    const hour = 3600_000;
    const now = new Date('2026-11-25T12:00:00Z');
    const ports = { ...defaultPorts, clock: { now: () => now } };
    const at = (h: number) => new Date(now.getTime() - h * hour);
    const make = (
      filename: string,
      status: string,
      createdHoursAgo: number,
      uploadedHoursAgo?: number,
    ) =>
      db().job.create({
        data: {
          userId: user.id,
          filename,
          status,
          createdAt: at(createdHoursAgo),
          uploadedAt: uploadedHoursAgo === undefined ? null : at(uploadedHoursAgo),
        },
      });
    const jobs = {
      createdOld: await make('created-old', 'created', 25),
      createdNew: await make('created-new', 'created', 23),
      uploadedOld: await make('uploaded-old', 'uploaded', 24 * 8, 24 * 8),
      uploadedRecently: await make('uploaded-recently', 'uploaded', 24 * 8, 24 * 6),
      failedOld: await make('failed-old', 'failed', 24 * 30),
      completedOld: await make('completed-old', 'completed', 24 * 30),
    };
    const src = path.join(dataDir, 'x.mp4');
    fs.writeFileSync(src, 'bytes');
    await storage().putFile(storageKeys.source(jobs.uploadedOld.id, 'test', 'mp4'), src);

    expect(await expireAbandonedJobs(ports)).toBe(2);
    const left = (await db().job.findMany({ select: { filename: true } }))
      .map((j) => j.filename)
      .sort();
    expect(left).toEqual(['completed-old', 'created-new', 'failed-old', 'uploaded-recently']);
    expect(await storage().stat(storageKeys.source(jobs.uploadedOld.id, 'test', 'mp4'))).toBeNull();
    expect(await expireAbandonedJobs(ports)).toBe(0);
  });
});
