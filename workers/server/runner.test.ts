import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { migratedPrisma } from '../../tests/support/temp-database';
import { MediaError } from '../../lib/media/ffmpeg';
import { FetchError } from '../../lib/net/safe-fetch';
import { DbQueueProvider } from '../../lib/queue/db-provider';
import { PermanentJobError } from '../../lib/queue/errors';
import { defaultPorts } from '../../lib/services/ports';
import {
  assertHandlersMatchCatalogue,
  Runner,
  type HandlerMap,
  type RunnerOptions,
} from './runner';

const prisma = migratedPrisma('runner');
const provider = new DbQueueProvider(() => prisma);
const quiet = process.env.DEBUG_RUNNER
  ? { info: (m: string) => console.log(m), error: (m: string) => console.log(m) }
  : { info: () => undefined, error: () => undefined };

/**
 * A Runner over this file's queue, on one slot polling every 20 ms, quiet unless DEBUG_RUNNER is
 * set.
 */
const runnerWith = (handlers: HandlerMap, opts: Partial<RunnerOptions> = {}) =>
  new Runner({
    ports: defaultPorts,
    handlers,
    provider,
    concurrency: 1,
    pollMs: 20,
    log: quiet,
    ...opts,
  });

beforeEach(async () => {
  await prisma.queueJob.deleteMany();
});

/** Test handlers: segment-video runs `behaviour`; the other kinds are never enqueued here. */
function handlersWith(
  behaviour: (signal: AbortSignal) => Promise<void>,
  failures: string[] = [],
): HandlerMap {
  return {
    'render-output': { run: () => Promise.resolve() },
    'render-batch': { run: () => Promise.resolve() },
    'refine-mask': { run: () => Promise.resolve() },
    'segment-video': {
      run: (_payload, ctx) => behaviour(ctx.signal),
      onFailure: (_payload, message) => {
        failures.push(message);
        return Promise.resolve();
      },
    },
    'deliver-webhook': { run: () => Promise.resolve() },
  };
}

async function runUntil(runner: Runner, done: () => Promise<boolean>): Promise<void> {
  runner.start();
  for (let i = 0; i < 200 && !(await done()); i++) await new Promise((r) => setTimeout(r, 25));
  await runner.stop(1_000);
}

const rowState = async () => prisma.queueJob.findFirstOrThrow();
const settled = async () => ['completed', 'failed'].includes((await rowState()).status);
const enqueue = (payload: object = { jobId: randomUUID() }, extra: { attempts?: number } = {}) =>
  prisma.queueJob.create({
    data: {
      queue: 'segment-video',
      payloadJson: JSON.stringify(payload),
      maxAttempts: 3,
      ...extra,
    },
  });

describe('Runner (real SQLite queue)', () => {
  it('refuses a handler map that does not match the catalogue', () => {
    expect(() =>
      assertHandlersMatchCatalogue({
        'segment-video': {},
        'render-output': {},
        'render-batch': {},
      }),
    ).toThrow(/missing: refine-mask, deliver-webhook/);
    expect(() =>
      assertHandlersMatchCatalogue({
        'segment-video': {},
        'render-output': {},
        'render-batch': {},
        'refine-mask': {},
        'deliver-webhook': {},
        'make-coffee': {},
      }),
    ).toThrow(/unknown: make-coffee/);
  });

  it('completes a row whose handler succeeds', async () => {
    await enqueue();
    let ran = 0;
    const runner = runnerWith(handlersWith(() => Promise.resolve(void ran++)));
    await runUntil(runner, settled);
    expect(ran).toBe(1);
    expect((await rowState()).status).toBe('completed');
  });

  it('retries a thrown error later, with backoff', async () => {
    await enqueue();
    const runner = runnerWith(handlersWith(() => Promise.reject(new Error('database busy'))));
    await runUntil(runner, async () => (await rowState()).lastError !== null);
    const row = await rowState();
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'database busy' });
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 5_000);
  });

  it.each([
    ['PermanentJobError', new PermanentJobError('The job has no uploaded video.')],
    ['MediaError', new MediaError('The file is not a supported video.')],
  ])('fails a %s for good at once and reports its message', async (_name, error) => {
    await enqueue();
    const failures: string[] = [];
    const runner = runnerWith(handlersWith(() => Promise.reject(error), failures));
    await runUntil(runner, settled);
    expect(await rowState()).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: error.message,
    });
    expect(failures).toEqual([error.message]);
  });

  it('fails an invalid payload for good without running the handler', async () => {
    await enqueue({ jobId: 'not-a-uuid' });
    let ran = 0;
    const runner = runnerWith(handlersWith(() => Promise.resolve(void ran++)));
    await runUntil(runner, settled);
    expect(ran).toBe(0);
    expect((await rowState()).status).toBe('failed');
    expect((await rowState()).lastError).toMatch(/^Invalid payload/);
  });

  it(
    'gives up after the last retry and says how many attempts were ' +
      'made, in words: internals go to the log',
    async () => {
      await enqueue(undefined, { attempts: 2 });
      const failures: string[] = [];
      const logged: string[] = [];
      const handlers = handlersWith(
        () =>
          Promise.reject(new Error('SQLITE_IOERR: disk I/O error at /srv/keyout/data/keyout.db')),
        failures,
      );
      const runner = runnerWith(handlers, {
        log: { info: () => undefined, error: (m) => logged.push(m) },
      });
      await runUntil(runner, settled);
      expect((await rowState()).status).toBe('failed');
      expect(failures).toHaveLength(1);
      const [message] = failures as [string];
      expect(message).toMatch(/^Processing failed after 3 attempts because of an internal error /);
      expect(message).toMatch(/ an internal error \(reference [0-9a-f]{8}\)\.$/);
      const ref = /reference ([0-9a-f]{8})/.exec(message)![1]!;
      expect(logged.some((l) => l.includes(`reference ${ref}`) && l.includes('SQLITE_IOERR'))).toBe(
        true,
      );
    },
  );

  it('passes on the words of a fetch that kept failing', async () => {
    await enqueue(undefined, { attempts: 2 });
    const failures: string[] = [];
    const runner = runnerWith(
      handlersWith(
        () => Promise.reject(new FetchError('The server answered HTTP 503.', true)),
        failures,
      ),
    );
    await runUntil(runner, settled);
    expect(failures).toEqual(['Processing failed after 3 attempts: The server answered HTTP 503.']);
  });

  it('gives up a row whose workers kept dying (lease lapsed with no attempts left)', async () => {
    await prisma.queueJob.create({
      data: {
        queue: 'segment-video',
        payloadJson: JSON.stringify({ jobId: randomUUID() }),
        status: 'active',
        attempts: 3,
        maxAttempts: 3,
        lockedBy: 'dead',
        lockedUntil: new Date(Date.now() - 1000),
      },
    });
    let ran = 0;
    const failures: string[] = [];
    const runner = runnerWith(handlersWith(() => Promise.resolve(void ran++), failures));
    await runUntil(runner, settled);
    expect(ran).toBe(0);
    expect(failures[0]).toMatch(/stopped unexpectedly/);
  });

  it(
    'aborts a running handler soon after its row is cancelled (the ' +
      'job was deleted), and records no failure',
    async () => {
      const jobId = randomUUID();
      await enqueue({ jobId });
      let started = false;
      let abortedAfter = -1;
      const failures: string[] = [];
      const handlers = handlersWith(
        (signal) =>
          new Promise((_resolve, reject) => {
            started = true;
            const t0 = Date.now();
            signal.addEventListener('abort', () => {
              abortedAfter = Date.now() - t0;
              reject(new MediaError('ffmpeg was cancelled'));
            });
          }),
        failures,
      );
      const runner = runnerWith(handlers, { heartbeatMs: 50 });
      runner.start();
      while (!started) await new Promise((r) => setTimeout(r, 10));
      expect(await provider.cancel([jobId])).toBe(1);
      while (abortedAfter < 0) await new Promise((r) => setTimeout(r, 10));
      await runner.stop(1_000);
      expect(failures).toEqual([]);
      expect(await prisma.queueJob.count()).toBe(0);
    },
  );

  it(
    'drains on stop: work still running after the grace period is ' + 'aborted and released',
    async () => {
      await enqueue();
      let started = false;
      const handlers = handlersWith(
        (signal) =>
          new Promise((_resolve, reject) => {
            started = true;
            signal.addEventListener('abort', () => reject(new MediaError('ffmpeg was cancelled')));
          }),
      );
      const runner = runnerWith(handlers, { concurrency: 2 });
      runner.start();
      while (!started) await new Promise((r) => setTimeout(r, 10));
      await runner.stop(100);
      expect(await rowState()).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    },
  );
});
