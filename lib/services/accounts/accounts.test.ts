import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { signUpOwnerAndMember } from '../../../tests/support/owner-and-member';
import { tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { sqlitePath } from '../../db/migrate';
import { env } from '../../env';
import { authenticateUser } from './authenticate-user';
import { signUp } from './sign-up';
import { defaultPorts } from '../ports';

tempDatabase('accounts');

describe('accounts', () => {
  it('makes only the first account an administrator', async () => {
    const { owner, member } = await signUpOwnerAndMember('Owner@Example.com');
    expect(owner).toMatchObject({ ok: true, isAdmin: true });
    expect(member).toMatchObject({ ok: true, isAdmin: false });
  });

  it('explains bad input and duplicate emails in words', async () => {
    expect(
      await signUp(defaultPorts, { email: 'not-an-email', password: 'long enough password' }),
    ).toEqual({
      ok: false,
      error: 'Enter a valid email address.',
    });
    const short = await signUp(defaultPorts, { email: 'x@example.com', password: 'short' });
    expect(!short.ok && short.error).toContain('10 characters');
    const duplicate = await signUp(defaultPorts, {
      email: 'owner@example.com',
      password: 'long enough password',
    });
    expect(!duplicate.ok && duplicate.error).toContain('already exists');
  });

  it('signs up while another process keeps writing to the database', async () => {
    db(); // creates the file
    // A worker or a second web process committing in a loop, as under load.
    const writer = new Worker(
      `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
       const { parentPort } = require('node:worker_threads');
       const db = new Database(${JSON.stringify(sqlitePath(env().databaseUrl))}, {
         timeout: 10000,
       });
       const insert = db.prepare(
         "INSERT INTO RateLimitCounter (key, count, windowStart, expiresAt) VALUES (?, 1, 0, 0)",
       );
       let stop = false, n = 0;
       parentPort.on('message', () => { stop = true; });
       (function loop() {
         for (let i = 0; i < 50; i++) insert.run('load-' + n++);
         if (stop) { db.close(); parentPort.postMessage(n); } else setImmediate(loop);
       })();`,
      { eval: true },
    );
    const results = [];
    for (let i = 0; i < 12; i++) {
      results.push(
        await signUp(defaultPorts, {
          email: `busy-${i}@example.com`,
          password: 'long enough password',
        }),
      );
    }
    writer.postMessage('stop');
    const written = await new Promise<number>((resolve) => writer.once('message', resolve));
    await writer.terminate();
    expect(written).toBeGreaterThan(0);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.every((r) => r.ok && !r.isAdmin)).toBe(true);
  });

  it('authenticates with the right password only (email case-insensitive)', async () => {
    expect(
      typeof (await authenticateUser(defaultPorts, 'OWNER@example.com', 'long enough password')),
    ).toBe('string');
    expect(
      await authenticateUser(defaultPorts, 'owner@example.com', 'wrong password!!'),
    ).toBeNull();
    expect(
      await authenticateUser(defaultPorts, 'nobody@example.com', 'long enough password'),
    ).toBeNull();
  });
});
