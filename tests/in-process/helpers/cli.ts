import { randomUUID } from 'node:crypto';
import type { Stack } from '../../integration/helpers/stack';
import type { TestAccount } from '../../integration/helpers/cli';

/**
 * `keyout keys create`, run in this process: the same command as the CLI (lib/cli/accounts.ts)
 * without a Node process started for each account. The integration tier runs the CLI itself.
 */
async function keysCreate(email: string, credits: number): Promise<string> {
  // One at a time: the command's key is read from what it prints.
  const turn = queue.then(() => printedKey(email, credits));
  queue = turn.catch(() => undefined);
  return turn;
}

let queue: Promise<unknown> = Promise.resolve();

async function printedKey(email: string, credits: number): Promise<string> {
  const { keysCreate: command } = await import('../../../lib/cli/accounts');
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    await command(['--email', email, '--credits', String(credits)]);
  } finally {
    console.log = log;
  }
  return lines.at(-1)!.trim();
}

/** A new account with `credits` credits and an API key. */
export async function createAccount(
  _stack: Stack,
  credits = 100,
  email = `svc-${randomUUID()}@example.com`,
): Promise<TestAccount> {
  return { email, key: await keysCreate(email, credits) };
}

/** Another key for an existing account (it must already have credits). */
export async function createKey(_stack: Stack, email: string): Promise<string> {
  return keysCreate(email, 0);
}
