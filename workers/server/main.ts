import os from 'node:os';
import { db } from '../../lib/db/client';
import { env } from '../../lib/env';
import { queueProvider } from '../../lib/queue';
import { handlers } from './handlers';
import { assertHandlersMatchCatalogue, Runner } from './runner';

/**
 * `npm run worker`: the process role that runs ffmpeg and the models (the web process never
 * does). Boots env → database (migrations applied by db()) → the runner with WORKER_CONCURRENCY
 * slots. SIGTERM/SIGINT drain: no new work; running work gets DRAIN_GRACE_MS to finish, then it
 * is aborted and its queue rows released for another worker.
 */
const DRAIN_GRACE_MS = 10_000;

/**
 * Lowers this process's priority before it starts any thread or ffmpeg (they inherit it): the
 * web process, at the default priority, then gets a core whenever it needs one. Only ever
 * raised: an operator who started the worker nicer keeps that.
 */
function yieldToWeb(nice: number): void {
  if (nice > os.getPriority()) os.setPriority(nice);
}

function main(): void {
  const config = env();
  yieldToWeb(config.WORKER_NICE);
  assertHandlersMatchCatalogue(handlers);
  db();
  const runner = new Runner({ handlers, provider: queueProvider(), concurrency: config.WORKER_CONCURRENCY });
  runner.start();
  console.log(`[worker] ${runner.workerId} ready (concurrency ${config.WORKER_CONCURRENCY}, queue ${config.QUEUE_PROVIDER}, nice ${os.getPriority()})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: draining`);
    runner
      .stop(DRAIN_GRACE_MS)
      .then(() => db().$disconnect())
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

try {
  main();
} catch (e) {
  console.error(`[worker] refusing to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
