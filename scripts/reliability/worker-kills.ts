import { api, uploadedJob, waitFor, waitForJob } from '../../tests/integration/helpers';
import { createAccount, reliabilityStack, testClip, type Part } from './common';
import { readProgress } from '../../lib/services/jobs/progress';

/**
 * SIGKILL of the worker (its whole process group, like a container kill or the OOM killer)
 * while it segments, `kills` times. Jobs are started one at a time and each is killed on its
 * first attempt; one that completes before the worker is caught segmenting it (a fast moment of
 * the host) is counted apart and another is started. Every job must complete, charged exactly
 * once, never refunded.
 */
export function workerKills(kills: number): Part {
  return {
    name: `SIGKILL of the worker mid-job, ${kills} times`,
    async run() {
      const { stack, db } = await reliabilityStack();
      const problems: string[] = [];
      try {
        const { key } = await createAccount(stack, 10_000);
        const clip = await testClip(stack.dataDir, 'clip.mp4', 4, '480x360');
        const jobs: string[] = [];
        let missed = 0;
        while (jobs.length - missed < kills) {
          const id = await uploadedJob(stack, key, clip);
          const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, {
            key,
            body: { model: 'service-human' },
          });
          if (r.status !== 200) throw new Error(`start answered ${r.status}: ${r.text}`);
          jobs.push(id);
          // Its first attempt, segmenting (killed jobs of earlier rounds may be retried first).
          const caught = await waitFor(
            async () => {
              const job = await db.job.findUnique({ where: { id } });
              if (job && job.status !== 'processing') return 'finished' as const;
              const row = await db.queueJob.findFirst({
                where: { queue: 'segment-video', status: 'active', payloadJson: { contains: id } },
              });
              if (!row || row.attempts !== 1) return undefined;
              const p = job && readProgress(job);
              return p?.stage === 'segment' && (p.framesDone ?? 0) >= 1
                ? ('segmenting' as const)
                : undefined;
            },
            {
              timeoutMs: 600_000,
              intervalMs: 50,
              what: `the worker to be segmenting job ${jobs.length}`,
            },
          );
          if (caught === 'finished') {
            missed++;
            continue;
          }
          process.kill(-stack.pids().worker!, 'SIGKILL');
          await stack.stopWorker();
          stack.startWorker();
        }
        let completed = 0;
        let singleCharges = 0;
        for (const id of jobs) {
          const done = await waitForJob(stack, key, id, { timeoutMs: 600_000 });
          if (done.status === 'completed') completed++;
          else problems.push(`job ${id} ${done.status}: ${done.message ?? ''}`);
          const entries = await db.creditEntry.findMany({ where: { jobId: id } });
          if (entries.length === 1 && entries[0]!.kind === 'debit') singleCharges++;
          else
            problems.push(
              `job ${id} has ledger entries ` +
                `${entries.map((e) => `${e.kind} ${e.amount}`).join(', ')}`,
            );
        }
        const reclaimed = await db.queueJob.count({
          where: { queue: 'segment-video', status: 'completed', attempts: { gte: 2 } },
        });
        const n = jobs.length;
        if (reclaimed !== kills)
          problems.push(`${reclaimed} jobs were completed on a later attempt, not ${kills}`);
        return {
          passed: completed === n && singleCharges === n && reclaimed === kills,
          figures:
            `${kills} kills → ${completed}/${n} jobs completed, ` +
            `${singleCharges}/${n} charged exactly once, 0 refunds; ` +
            `${reclaimed} killed jobs reclaimed after their lease lapsed` +
            (missed
              ? ` (${missed} more finished before the worker was caught segmenting them)`
              : ''),
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}
