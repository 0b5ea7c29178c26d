import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../../lib/db/generated/client';
import { postgresClient } from '../../lib/db/postgres';
import { FASTSTART, syntheticClip } from '../../lib/media/fixtures';
import { createAccount, startStack, type Stack } from '../../tests/integration/helpers';

export const run = promisify(execFile);

/** One part's outcome: what held, in figures, and whether it is what the suite promises. */
export interface PartResult {
  name: string;
  passed: boolean;
  /** The figures, in one line (the table in docs/operations.md is made of these). */
  figures: string;
  /** Anything that did not hold, one line each. */
  problems: string[];
  seconds: number;
}

export interface Part {
  name: string;
  /**
   * Runs on the scale-out stack too (`--stack scale`); the others read the embedded stack's queue
   * rows or files.
   */
  scale?: boolean;
  run(): Promise<Omit<PartResult, 'name' | 'seconds'>>;
}

/**
 * A stack for one part: web and worker on a fresh DATA_DIR, limits raised where a part needs
 * many starts from one account (the per-minute limits are tested elsewhere). With `--stack
 * scale` (KEYOUT_TEST_STACK=scale) it is the scale-out stack, with `webs` web processes.
 */
export async function reliabilityStack(
  env: Record<string, string> = {},
  worker = true,
  webs = 1,
): Promise<{ stack: Stack; db: PrismaClient }> {
  const stack = await startStack({
    worker,
    webs,
    env: { STARTS_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000', ...env },
  });
  // A client of its own per stack: the app's db() is one per process, and parts run one after
  // another.
  const db =
    stack.kind === 'scale'
      ? postgresClient(stack.env.DATABASE_URL!, 2)
      : new PrismaClient({
          adapter: new PrismaBetterSqlite3({
            url: path.join(stack.dataDir, 'keyout.db'),
            timeout: 10_000,
          }),
        });
  return { stack, db };
}

export { createAccount };

/** A small H.264 MP4 from ffmpeg's test source, laid out for streaming (faststart). */
export function testClip(dir: string, name: string, seconds: number, size = '160x120') {
  return syntheticClip(path.join(dir, name), { seconds, size, extra: FASTSTART });
}

/** Resident memory (MiB) of every process in a process group. */
export function groupRssMiB(pgid: number | null): number {
  if (!pgid) return 0;
  try {
    const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pgid)], { encoding: 'utf8' });
    return out.split('\n').reduce((sum, l) => sum + (Number(l.trim()) || 0), 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Is this the spec's error body: an object with a string `error` and at most a string `details`?
 */
export function isSpecError(text: string): boolean {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const keys = Object.keys(body);
    return (
      typeof body.error === 'string' &&
      body.error.length > 0 &&
      keys.every((k) => k === 'error' || k === 'details') &&
      (body.details === undefined || typeof body.details === 'string')
    );
  } catch {
    return false;
  }
}

/** Tool output that must never reach a user ("[h264 @ 0x55d…]", stack traces, paths of ours). */
export function leaksInternals(message: string): boolean {
  return /@ 0x[0-9a-f]+|\[[a-z0-9_]+ @|\n\s+at |\/work\/|\/tmp\/|DATA_DIR|prisma|SQLITE/i.test(
    message,
  );
}

/**
 * Everything the stack's processes printed (stack.logs() keeps only the last 20 KB, so crash
 * lines from early in a long part would be missed).
 */
export function allLogs(stack: Stack): string {
  try {
    return fs.readFileSync(path.join(stack.dataDir, 'stack.log'), 'utf8');
  } catch {
    return stack.logs();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function writeFile(dir: string, name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}
