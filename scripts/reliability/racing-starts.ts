import { api, uploadedJob } from '../../tests/integration/helpers';
import { createAccount, reliabilityStack, testClip, type Part } from './common';

/**
 * `starts` starts at once, each of a different 1-credit job, from an account with credit for
 * `credit` of them: exactly `credit` start, the rest get 402, the balance ends at 0.
 */
export function racingStarts(starts: number, credit: number): Part {
  return {
    name: `${starts} racing starts on credit for ${credit}`,
    async run() {
      // No worker: the race is the start requests' transactions.
      const { stack, db } = await reliabilityStack({}, false);
      try {
        const { key } = await createAccount(stack, credit);
        const clip = await testClip(stack.dataDir, 'one-second.mp4', 1);
        const jobs: string[] = [];
        for (let i = 0; i < starts; i++) jobs.push(await uploadedJob(stack, key, clip));
        const answers = await Promise.all(jobs.map((id) => api(stack, 'POST', `/v1/jobs/${id}/start`, { key, body: { model: 'service-original' } })));
        const ok = answers.filter((a) => a.status === 200).length;
        const refused = answers.filter((a) => a.status === 402 && a.body.error === 'Insufficient credits').length;
        const other = answers.filter((a) => a.status !== 200 && a.status !== 402).map((a) => `${a.status} ${a.text}`);
        const balance = (await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })).body.remaining_credits;
        const debits = await db.creditEntry.count({ where: { kind: 'debit', jobId: { in: jobs } } });
        const processing = await db.job.count({ where: { id: { in: jobs }, status: 'processing' } });
        return {
          passed: ok === credit && refused === starts - credit && balance === 0 && debits === credit && processing === credit && !other.length,
          figures: `${ok} started, ${refused} refused with 402, ${debits} debits, balance ${balance}`,
          problems: other,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}
