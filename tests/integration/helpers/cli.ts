import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, type Stack } from './stack';

const run = promisify(execFile);

/** Runs `keyout <args>` against the stack's DATA_DIR, the way a self-hoster would. */
export async function keyout(
  stack: Stack,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/keyout.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...stack.env },
  });
}

export interface TestAccount {
  email: string;
  key: string;
}

/** A new account with `credits` credits and an API key, made through `keyout keys create`. */
export async function createAccount(
  stack: Stack,
  credits = 100,
  email = `it-${randomUUID()}@example.com`,
): Promise<TestAccount> {
  const { stdout } = await keyout(stack, [
    'keys',
    'create',
    '--email',
    email,
    '--credits',
    String(credits),
  ]);
  const key = stdout.trim().split('\n').at(-1)!.trim();
  return { email, key };
}

/** Another key for an existing account (it must already have credits). */
export async function createKey(stack: Stack, email: string): Promise<string> {
  const { stdout } = await keyout(stack, ['keys', 'create', '--email', email, '--credits', '0']);
  return stdout.trim().split('\n').at(-1)!.trim();
}
