import { api, uploadedJob } from '../../tests/integration/helpers';
import { createAccount, reliabilityStack, testClip, type Part } from './common';

/** The body of a start the client saw fail without an answer. */
const NO_ANSWER: { error?: string } = {};

/**
 * `starts` starts at once, each of a different 1-credit job, from an account with credit for
 * `credit` of them: exactly `credit` start, the rest get 402, the balance ends at 0. `rounds`
 * times, each with a fresh account on the same stack; on the scale-out stack the starts are
 * spread over two web processes.
 */
export function racingStarts(starts: number, credit: number, rounds = 1): Part {
  return {
    name:
      `${starts} racing starts on credit for ` +
      `${credit}${rounds > 1 ? `, ${rounds} rounds` : ''}`,
    scale: true,
    async run() {
      // No worker: the race is the start requests' transactions.
      const { stack, db } = await reliabilityStack(
        {},
        false,
        process.env.KEYOUT_TEST_STACK === 'scale' ? 2 : 1,
      );
      const problems: string[] = [];
      let held = 0;
      const totals = { ok: 0, refused: 0, debits: 0 };
      try {
        const clip = await testClip(stack.dataDir, 'one-second.mp4', 1);
        for (let round = 0; round < rounds; round++) {
          const { key } = await createAccount(stack, credit);
          // The uploads a few at a time: the race is the starts, and 50 ffprobes at once on a
          // loaded 2-core host ran past the probe's time limit ("Probing the video timed out").
          const jobs: string[] = [];
          while (jobs.length < starts) {
            const batch = Math.min(5, starts - jobs.length);
            jobs.push(
              ...(await Promise.all(
                Array.from({ length: batch }, () => uploadedJob(stack, key, clip)),
              )),
            );
          }
          const answers = await Promise.all(
            jobs.map((id, i) =>
              api<{ error?: string }>(stack, 'POST', `/v1/jobs/${id}/start`, {
                key,
                web: i % stack.baseUrls.length,
                body: { model: 'service-original' },
              }).catch(
                // A start the client saw fail (no answer) is a finding, not the end of the part.
                (e: unknown) => ({
                  status: 0,
                  text: `no answer: ${String((e as { cause?: unknown }).cause ?? e)}`,
                  body: NO_ANSWER,
                }),
              ),
            ),
          );
          const ok = answers.filter((a) => a.status === 200).length;
          const refused = answers.filter(
            (a) => a.status === 402 && a.body.error === 'Insufficient credits',
          ).length;
          const other = answers.filter(
            (a) =>
              a.status !== 200 && !(a.status === 402 && a.body.error === 'Insufficient credits'),
          );
          const balance = (
            await api<{ remaining_credits: number }>(stack, 'GET', '/v1/credits', { key })
          ).body.remaining_credits;
          const debits = await db.creditEntry.count({
            where: { kind: 'debit', jobId: { in: jobs } },
          });
          const processing = await db.job.count({
            where: { id: { in: jobs }, status: 'processing' },
          });
          totals.ok += ok;
          totals.refused += refused;
          totals.debits += debits;
          if (
            ok === credit &&
            refused === starts - credit &&
            balance === 0 &&
            debits === credit &&
            processing === credit
          )
            held++;
          else
            problems.push(
              `round ${round + 1}: ${ok} started, ${refused} × 402, ${debits} ` +
                `debits, ${processing} processing, balance ${balance}`,
            );
          for (const a of other) problems.push(`round ${round + 1}: ${a.status} ${a.text}`);
        }
        return {
          passed: held === rounds,
          figures:
            rounds === 1
              ? `${totals.ok} started, ${totals.refused} refused with 402, ` +
                `${totals.debits} debits, balance 0`
              : `${held}/${rounds} rounds held: ${totals.ok} started, ` +
                `${totals.refused} refused with 402, ${totals.debits} debits in ` +
                'all',
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}
