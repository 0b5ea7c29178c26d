import { beforeAll, describe, expect, it, vi } from 'vitest';
import { probedClipJob, tempDatabase } from '../../../tests/support/temp-database';
import { grantCredits } from '../../billing/ledger';
import { db } from '../../db/client';
import { ServiceError } from '../../errors';
import { RefineMaskRequest } from '../../schemas/refinements';
import { requestRefinement } from './request-refinement';
import { defaultPorts } from '../ports';

// A real SQLite database in a temp DATA_DIR; the job is a completed one with two mask versions.
tempDatabase('refine');

let owner: string;

beforeAll(async () => {
  owner = (await db().user.create({ data: { email: 'owner@example.com' } })).id;
  await grantCredits(owner, 100, 'grant', 'test');
});
async function completedJob() {
  const job = await probedClipJob(owner, { status: 'completed', activeMaskVersion: 1 });
  await db().maskVersion.createMany({
    data: [1, 2].map((version) => ({
      jobId: job.id,
      version,
      storageKey: `jobs/${job.id}/mask-v${version}.mkv`,
    })),
  });
  return job;
}
/** A refinement of the job's person, with only the spec's fields. */
const refinePerson = (jobId: string) =>
  requestRefinement(
    defaultPorts,
    owner,
    jobId,
    RefineMaskRequest.parse({ prompt: { text: 'person' } }),
    null,
  );

describe('requestRefinement with only the spec fields', () => {
  it(
    'answers 409 when another mask version was activated between ' +
      'the request and the refinement',
    async () => {
      const job = await completedJob();
      // The request reads the job as it arrives; the version is switched before the refinement is
      // created.
      const read = db().job.findFirst.bind(db().job);
      const readThenSwitch = async (args: Parameters<typeof read>[0]) => {
        const seen = await read(args);
        await db().job.update({ where: { id: job.id }, data: { activeMaskVersion: 2 } });
        return seen;
      };
      const spy = vi
        .spyOn(db().job, 'findFirst')
        .mockImplementationOnce(readThenSwitch as unknown as typeof read);
      const e = await refinePerson(job.id).catch((err: unknown) => err);
      spy.mockRestore();
      expect(e).toBeInstanceOf(ServiceError);
      expect(e).toMatchObject({
        kind: 'conflict',
        message: 'The active mask changed: it is version 2, not 1',
      });
      expect(await db().refinement.count({ where: { jobId: job.id } })).toBe(0);
    },
  );

  it('refines the version active when the request arrived', async () => {
    const job = await completedJob();
    const r = await refinePerson(job.id);
    expect(r).toMatchObject({ status: 'queued', from_version: 1, version: 3 });
  });
});
