import { beforeAll, describe, expect, it } from 'vitest';
import { probedClipJob, tempDatabase } from '../../../tests/support/temp-database';
import { grantCredits } from '../../billing/ledger';
import { db } from '../../db/client';
import { ServiceError } from '../../errors';
import { StartJobRequest } from '../../schemas/jobs';
import { startJob } from './start-job';
import { refusal } from '../../../tests/support/refusal';
import { defaultPorts } from '../ports';

// A real SQLite database in a temp DATA_DIR; the jobs are rows in the states the tests need.
tempDatabase('start');

let owner: string;

beforeAll(async () => {
  owner = (await db().user.create({ data: { email: 'owner@example.com' } })).id;
});
const jobIn = (status: string) => probedClipJob(owner, { status, sourceKey: 'jobs/x/source.mp4' });

describe('startJob on a job that has already run', () => {
  // completed: a status the spec lists for start, answered with how to get more from the job.
  it.each([
    {
      status: 'completed',
      details: (id: string) =>
        `Make more outputs from it with POST /v1/jobs/${id}/exports or ` +
        'batch-exports, or refine its mask with POST ' +
        `/v1/jobs/${id}/refine-mask; to process a video again, create a ` +
        'new job.',
    },
    {
      status: 'failed',
      details: () => 'A job runs once; to try again, create a new job and upload the video to it.',
    },
  ])('refuses a $status job with 400 saying what to do instead', async ({ status, details }) => {
    const job = await jobIn(status);
    const e = await refusal(startJob(defaultPorts, owner, job.id, StartJobRequest.parse({})));
    expect(e.kind).toBe('invalid');
    expect(e.message).toBe(`The job has already been processed (status ${status})`);
    expect(e.details).toBe(details(job.id));
    expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe(status);
  });
});

describe('startJob and the starts a minute', () => {
  it('admits a new start once, and a replay of it not at all', async () => {
    await grantCredits(owner, 100, 'grant', 'test');
    const job = await jobIn('uploaded');
    const admitted: string[] = [];
    const admitStart = () => {
      admitted.push(job.id);
      return () => void admitted.pop();
    };
    const first = await startJob(
      defaultPorts,
      owner,
      job.id,
      StartJobRequest.parse({ model: 'service-light' }),
      {
        admitStart,
      },
    );
    const replay = await startJob(
      defaultPorts,
      owner,
      job.id,
      StartJobRequest.parse({ model: 'service-light' }),
      { admitStart },
    );
    expect(replay).toEqual(first);
    expect(admitted).toEqual([job.id]);
  });

  it(
    'answers a start that lost the race to another start of the job ' +
      'as that one was answered: one charge, its place given back',
    async () => {
      await grantCredits(owner, 100, 'grant', 'test');
      const job = await jobIn('uploaded');
      let admits = 0;
      let givenBack = 0;
      const admitStart = () => {
        admits++;
        return () => void givenBack++;
      };
      const request = StartJobRequest.parse({ model: 'service-light' });
      // Both read the job `uploaded` before either writes: both are admitted, one commits.
      const [a, b] = await Promise.all([
        startJob(defaultPorts, owner, job.id, request, { admitStart }),
        startJob(defaultPorts, owner, job.id, request, { admitStart }),
      ]);
      expect([admits, givenBack]).toEqual([2, 1]);
      expect(b).toEqual(a);
      expect(a).toMatchObject({ id: job.id, status: 'processing', creditsUsed: 2 });
      const debits = await db().creditEntry.findMany({ where: { jobId: job.id, kind: 'debit' } });
      expect(debits.map((d) => d.amount)).toEqual([-2]);
      expect(await db().output.count({ where: { jobId: job.id } })).toBe(1);
    },
  );

  it('starts nothing when the start is not admitted', async () => {
    const job = await jobIn('uploaded');
    const refused = new ServiceError('rate_limited', 'Rate limit exceeded');
    const e = await refusal(
      startJob(defaultPorts, owner, job.id, StartJobRequest.parse({}), {
        admitStart: () => {
          throw refused;
        },
      }),
    );
    expect(e).toBe(refused);
    expect((await db().job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe('uploaded');
  });
});
