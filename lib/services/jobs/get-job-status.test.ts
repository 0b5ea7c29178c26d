import { beforeAll, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { getJobStatus } from './get-job-status';
import { defaultPorts } from '../ports';

// A real SQLite database in a temp DATA_DIR; signed URLs name the stored key they point at.
tempDatabase('status');

let owner: string;

beforeAll(async () => {
  owner = (await db().user.create({ data: { email: 'owner@example.com' } })).id;
});
const keyOf = (url: string | null) =>
  url ? decodeURIComponent(new URL(url).pathname).replace(/^\/files\//, '') : null;

describe('the status record after a refinement', () => {
  it(
    'tells one story: processed_mask_url is the mask ' +
      'processed_video_url was rendered from, not the refined one',
    async () => {
      const job = await db().job.create({
        data: {
          userId: owner,
          filename: 'clip.mp4',
          status: 'completed',
          activeMaskVersion: 2,
          lengthSeconds: 2,
          fps: 25,
        },
      });
      await db().maskVersion.createMany({
        data: [
          { jobId: job.id, version: 1, storageKey: `jobs/${job.id}/mask-v1.mkv` },
          {
            jobId: job.id,
            version: 2,
            storageKey: `jobs/${job.id}/mask-v2.mkv`,
            source: 'refinement',
          },
        ],
      });
      await db().output.create({
        data: {
          jobId: job.id,
          role: 'primary',
          format: 'webm_vp9',
          maskVersion: 1,
          status: 'completed',
          storageKey: `jobs/${job.id}/primary.webm`,
        },
      });
      const record = await getJobStatus(defaultPorts, owner, job.id);
      expect(keyOf(record.processed_video_url)).toBe(`jobs/${job.id}/primary.webm`);
      expect(keyOf(record.processed_mask_url)).toBe(`jobs/${job.id}/mask-v1.mkv`);
    },
  );
});
