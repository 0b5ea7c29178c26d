import fs from 'node:fs';
import os from 'node:os';
import { db } from '../../lib/db/client';
import { env } from '../../lib/env';
import { describeChoice, isGpu, type DeviceChoice } from '../../lib/inference/device';
import { queueProvider, relay } from '../../lib/queue';
import { needsDevice, resolveLanes, type LaneSetting } from '../../lib/queue/lanes';
import { expireAbandonedJobs } from '../../lib/services/jobs/expire-abandoned-jobs';
import { defaultPorts, withRuntime } from '../../lib/services/ports';
import { serverRuntime } from '../../lib/inference/server-runtime';
import { handlers } from './handlers';
import { assertHandlersMatchCatalogue, Runner } from './runner';

/**
 * `npm run worker`: the process role that runs ffmpeg and the models (the web process never
 * does). Boots env → database (connected, pending migrations applied) → the runner with
 * WORKER_CONCURRENCY slots. SIGTERM/SIGINT drain: no new work; running work gets DRAIN_GRACE_MS to
 * finish, then it is aborted and its queue rows released for another worker.
 */
const DRAIN_GRACE_MS = 10_000;
/**
 * How often abandoned, never-started jobs are looked for (lib/services/jobs/expire-abandoned-jobs).
 */
const EXPIRY_SWEEP_MS = 60 * 60 * 1000;
/** The process's adapters, with the models (loaded on first use). */
const ports = withRuntime(defaultPorts, serverRuntime);

function sweepAbandonedJobs(): void {
  expireAbandonedJobs(ports).then(
    (n) => {
      if (n) console.log(`[worker] deleted ${n} abandoned job(s) that were never started`);
    },
    (e: unknown) =>
      console.error(
        `[worker] abandoned-job sweep failed: ${e instanceof Error ? e.message : String(e)}`,
      ),
  );
}

/**
 * Lowers the priority of this process before it starts the inference thread or any ffmpeg: the
 * web process, at the default priority, then gets a core whenever it needs one. On Linux the
 * niceness is per thread and a new thread takes its creator's, so every thread that already
 * exists (V8's and libuv's) is lowered too; then whichever starts the next one, it inherits
 * it. Only ever raised: an operator who started the worker nicer keeps that.
 */
function yieldToWeb(nice: number): void {
  let threads: number[] = [0];
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // not Linux: the process's priority is the threads'
  }
  for (const tid of threads) {
    try {
      if (nice > os.getPriority(tid)) os.setPriority(tid, nice);
    } catch {
      // the thread ended meanwhile
    }
  }
}

/**
 * The device this worker's models run on, chosen before it claims any work: the ready line
 * says it, `WORKER_LANES=auto` depends on it, and an explicit INFERENCE_DEVICE that does not
 * answer stops the start here. A worker on the cpu lane alone never loads a model.
 */
async function inferenceDevice(lanes: LaneSetting): Promise<DeviceChoice | null> {
  if (!needsDevice(lanes)) return null;
  return (await ports.runtime()).device();
}

async function main(): Promise<void> {
  const config = env();
  yieldToWeb(config.WORKER_NICE);
  assertHandlersMatchCatalogue(handlers);
  const inference = await inferenceDevice(config.WORKER_LANES);
  const lanes = resolveLanes(config.WORKER_LANES, inference !== null && isGpu(inference.device));
  await db().$connect();
  const provider = queueProvider();
  const runner = new Runner({
    handlers,
    ports,
    provider,
    concurrency: config.WORKER_CONCURRENCY,
    lanes,
    onIdle: () => relay(ports),
  });
  runner.start();
  sweepAbandonedJobs();
  const sweep = setInterval(sweepAbandonedJobs, EXPIRY_SWEEP_MS);
  sweep.unref();
  console.log(
    `[worker] ${runner.workerId} ready (concurrency ` +
      `${config.WORKER_CONCURRENCY}, lanes ` +
      `${lanes.join('+')}${config.WORKER_LANES === 'auto' ? ' (auto)' : ''},` +
      ` queue ${config.QUEUE_PROVIDER}, storage ` +
      `${config.STORAGE_PROVIDER}, nice ${os.getPriority()}; ` +
      'inference ' +
      `${inference ? describeChoice(inference) : 'not used (cpu lane only)'})`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    console.log(`[worker] ${signal}: draining`);
    runner
      .stop(DRAIN_GRACE_MS)
      .then(() => Promise.all([provider.close(), db().$disconnect()]))
      .then(
        () => process.exit(0),
        (e: unknown) => {
          console.error('[worker] shutdown failed', e);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A stray rejection in one job must not take the worker (and other jobs) down; each job's
  // own failure path and its lease already cover the job itself.
  process.on('unhandledRejection', (e) => console.error('[worker] unhandled rejection', e));
}

main().catch((e: unknown) => {
  console.error(`[worker] refusing to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
