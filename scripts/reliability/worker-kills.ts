import { api, uploadedJob, waitFor, waitForJob } from '../../tests/integration/helpers';
import { createAccount, reliabilityStack, testClip, type Part } from './common';

/**
 * SIGKILL of the worker (its whole process group, like a container kill or the OOM killer)
 * while it segments, `kills` times, each time on a different job's first attempt. Every job
 * must complete, charged exactly once, never refunded.
 */
export function workerKills(kills: number): Part {
  return {
    name: `SIGKILL of the worker mid-job, ${kills} times`,
    async run() {
      const { stack, db } = await reliabilityStack();
      const problems: string[] = [];
      try {
        const { key } = await createAccount(stack, 10_000);
        const clip = await testClip(stack.dataDir, 'clip.mp4', 3, '320x240');
        const jobs: string[] = [];
        for (let i = 0; i < kills; i++) {
          const id = await uploadedJob(stack, key, clip);
          const r = await api(stack, 'POST', `/v1/jobs/${id}/start`, { key, body: { model: 'service-human' } });
          if (r.status !== 200) throw new Error(`start answered ${r.status}: ${r.text}`);
          jobs.push(id);
        }
        const killed = new Set<string>();
        while (killed.size < kills) {
          // The worker is segmenting a job it has not been killed on yet (its first attempt).
          const victim = await waitFor(
            async () => {
              const row = await db.queueJob.findFirst({ where: { queue: 'segment-video', status: 'active', attempts: 1 } });
              const jobId = row ? (JSON.parse(row.payloadJson) as { jobId: string }).jobId : null;
              if (!jobId || killed.has(jobId)) return undefined;
              const job = await db.job.findUnique({ where: { id: jobId } });
              const p = job?.progressJson ? (JSON.parse(job.progressJson) as { stage: string; framesDone: number }) : null;
              return p?.stage === 'segment' && p.framesDone >= 1 ? jobId : undefined;
            },
            { timeoutMs: 300_000, intervalMs: 50, what: 'the worker to be segmenting a fresh job' },
          );
          process.kill(-stack.pids().worker!, 'SIGKILL');
          killed.add(victim);
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
          else problems.push(`job ${id} has ledger entries ${entries.map((e) => `${e.kind} ${e.amount}`).join(', ')}`);
        }
        const reclaimed = await db.queueJob.count({ where: { queue: 'segment-video', status: 'completed', attempts: { gte: 2 } } });
        return {
          passed: completed === kills && singleCharges === kills && killed.size === kills,
          figures: `${killed.size} kills → ${completed}/${kills} completed, ${singleCharges}/${kills} charged exactly once, 0 refunds; ${reclaimed} rows reclaimed after their lease lapsed`,
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}

