import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { resetEnvForTests } from '../../lib/env';
import {
  api,
  createAccount,
  type Stack,
  startStack,
  talkingOrSynthetic,
  uploadedJob,
  waitFor,
  waitForJob,
} from './helpers';
import { readProgress } from '../../lib/services/jobs/progress';

/**
 * Crash safety with real processes: a worker killed with SIGKILL mid-segmentation leaves its
 * queue row to lapse; a new worker reclaims it and the job completes, charged exactly once.
 * SIGTERM drains: the worker finishes or releases its job and exits, and the job completes later.
 */
// Each test runs a 4 s clip twice over (killed, then again); on a loaded 2-core host that took
// up to 350 s, past the suite's 300 s default. The drain's abort waits for the frame in flight.
const SLOW_HOST_MS = 600_000;

let stack: Stack;
let key: string;
let clip: string;

beforeAll(async () => {
  stack = await startStack({ worker: true });
  Object.assign(process.env, stack.env);
  resetEnvForTests();
  key = (await createAccount(stack, 1000)).key;
  const dest = path.join(stack.dataDir, 'clip.mp4');
  // Long enough to be caught mid-job on any machine.
  clip = await talkingOrSynthetic(dest, 4);
});
afterAll(async () => {
  await db().$disconnect();
  await stack?.stop();
});

/**
 * A job started now, once a worker is segmenting it: its id, the queue row of its processing and
 * the pid of the worker holding it (workerId = host:pid:…).
 */
async function heldJob() {
  const jobId = await uploadedJob(stack, key, clip);
  const started = await api(stack, 'POST', `/v1/jobs/${jobId}/start`, {
    key,
    body: { model: 'service-light' },
  });
  expect(started.status, started.text).toBe(200);
  const held = await waitFor(
    async () => {
      const job = await db().job.findUniqueOrThrow({ where: { id: jobId } });
      const progress = readProgress(job);
      if (progress?.stage !== 'segment' || (progress.framesDone ?? 0) < 1) return undefined;
      const row = await db().queueJob.findFirst({
        where: { queue: 'segment-video', payloadJson: { contains: jobId }, status: 'active' },
      });
      return row?.lockedBy ? { row, pid: Number(row.lockedBy.split(':')[1]) } : undefined;
    },
    { timeoutMs: 180_000, intervalMs: 100, what: 'the worker to be segmenting' },
  );
  return { jobId, ...held };
}

/** The job's status once a new worker, started after the old one is gone, completed it. */
async function completedByNewWorker(jobId: string, timeoutMs?: number) {
  // The launcher ends just after the worker; startWorker() sees a worker still running until then.
  await stack.stopWorker();
  stack.startWorker();
  const status = await waitForJob(stack, key, jobId, { timeoutMs });
  expect(status.status, `${status.message}\n${stack.logs()}`).toBe('completed');
  expect(await chargesOf(jobId)).toEqual({ debits: 1, refunds: 0 });
  return status;
}

async function chargesOf(jobId: string) {
  const entries = await db().creditEntry.findMany({ where: { jobId } });
  return {
    debits: entries.filter((e) => e.kind === 'debit').length,
    refunds: entries.filter((e) => e.kind === 'refund').length,
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('worker crash safety', () => {
  it(
    'a job whose worker is SIGKILLed mid-job is reclaimed after the ' +
      'lease and completes, charged once',
    async () => {
      const { jobId, row, pid } = await heldJob();
      // The worker's whole process group (its launcher, the worker, their ffmpeg), like a container
      // kill.
      process.kill(-stack.pids().worker!, 'SIGKILL');
      await waitFor(() => Promise.resolve(alive(pid) ? undefined : true), {
        what: 'the worker to die',
      });
      expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe(
        'processing',
      );

      const status = await completedByNewWorker(jobId, 300_000);
      expect(status.processed_video_url).toEqual(expect.any(String));
      const after = await db().queueJob.findUniqueOrThrow({ where: { id: row.id } });
      expect(after).toMatchObject({ status: 'completed', attempts: 2 });
      expect(after.lockedBy).toBeNull();
      expect(await db().maskVersion.count({ where: { jobId } })).toBe(1);
      expect(fs.existsSync(path.join(stack.dataDir, 'work', `segment-${jobId}`))).toBe(false);
    },
    SLOW_HOST_MS,
  );

  it(
    'SIGTERM drains: the worker finishes or releases its job and ' +
      'exits; the job completes, charged once',
    async () => {
      const { jobId, row, pid } = await heldJob();
      process.kill(pid, 'SIGTERM');
      await waitFor(() => Promise.resolve(alive(pid) ? undefined : true), {
        timeoutMs: 120_000,
        what: 'the worker to exit',
      });
      const left = await db().queueJob.findUniqueOrThrow({ where: { id: row.id } });
      // Finished within the grace period, or handed back untouched for the next worker.
      if (left.status !== 'completed')
        expect(left).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });

      await completedByNewWorker(jobId);
      expect(stack.logs()).toMatch(/SIGTERM: draining/);
    },
    SLOW_HOST_MS,
  );
});
