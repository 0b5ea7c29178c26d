import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  scaleServices,
  stackEnv,
  stackKind,
  type Stack,
  type StackOptions,
} from '../../integration/helpers/stack';
import { freePorts } from '../../../scripts/lib-stack/ports';
import { serveRoutes } from './routes';

/**
 * The in-process tier's Keyout, in the test process: the API's route handlers on a plain HTTP
 * server (routes.ts) and the worker's Runner with its real handlers, queue and storage, over a
 * fresh DATA_DIR and database. Models answer from the stand-in runtime (stand-in-runtime.ts),
 * handed to the Runner in its ports; ffmpeg is real. The same Stack as the
 * integration tier's, so a test file runs on either; on the scale-out services
 * (KEYOUT_TEST_STACK=scale) it uses PostgreSQL, BullMQ and S3 as the integration stack does.
 * One stack per test file: the process's environment is the stack's.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const kind = stackKind(opts);
  const port = await freePorts(1);
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-svc-'));
  const services = kind === 'scale' ? await scaleServices() : null;
  const env = stackEnv(dataDir, port, services?.env, opts.env);
  Object.assign(process.env, env);
  const { resetEnvForTests } = await import('../../../lib/env');
  resetEnvForTests();
  const log: string[] = [];
  const worker = await inProcessWorker(log, opts.worker || Boolean(opts.workers));
  let server: http.Server = await serveRoutes(port);
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    kind,
    baseUrl,
    baseUrls: [baseUrl],
    port,
    dataDir,
    env,
    mode: 'in-process',
    logs: () => log.slice(-200).join('\n'),
    pids: () => ({ web: process.pid, worker: worker.running() ? process.pid : null }),
    workerPids: () => (worker.running() ? [process.pid] : []),
    startWorker: () => worker.start(),
    stopWorker: () => worker.stop(),
    restartWeb: async () => {
      server.closeAllConnections();
      await closeServer();
      server = await serveRoutes(port);
    },
    stop: async () => {
      server.closeAllConnections();
      await Promise.all([closeServer(), worker.stop()]);
      await worker.close();
      await services?.stop();
      if (!process.env.KEYOUT_TEST_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The worker's Runner in this process, started when asked; its log lines go to `log`. */
async function inProcessWorker(log: string[], startNow: boolean) {
  const [{ Runner }, { handlers }, { relay }, { defaultPorts }, { standInRuntime }] =
    await Promise.all([
      import('../../../workers/server/runner'),
      import('../../../workers/server/handlers'),
      import('../../../lib/queue'),
      import('../../../lib/services/ports'),
      import('../stand-in-runtime'),
    ]);
  // The stack's own adapters (its environment is set by now), with the stand-in models.
  const runtime = standInRuntime();
  const ports = { ...defaultPorts, runtime: () => Promise.resolve(runtime) };
  await ports.db.$connect();
  const provider = ports.queue;
  const logger = {
    info: (m: string) => log.push(`[worker] ${m}`),
    error: (m: string) => log.push(`[worker] ${m}`),
  };
  let runner: InstanceType<typeof Runner> | null = null;
  const worker = {
    running: () => runner !== null,
    start() {
      if (runner) return;
      // Idle slots look for work often: a test waits on nothing but the job itself.
      runner = new Runner({
        handlers,
        ports,
        provider,
        concurrency: 1,
        onIdle: () => relay(ports),
        log: logger,
        pollMs: 100,
      });
      runner.start();
    },
    async stop() {
      await runner?.stop(2_000);
      runner = null;
    },
    async close() {
      await provider.close();
      await ports.db.$disconnect();
    },
  };
  if (startNow) worker.start();
  return worker;
}
