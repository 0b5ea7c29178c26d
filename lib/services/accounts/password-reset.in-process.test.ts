import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDatabase } from '../../../tests/support/temp-database';
import { db } from '../../db/client';
import { resetEnvForTests } from '../../env';
import { authenticateUser } from './authenticate-user';
import {
  issueResetLink,
  requestResetByEmail,
  resetPassword,
  resetTokenValid,
  RESET_LINK_TTL_MS,
} from './password-reset';
import { signUp } from './sign-up';
import { defaultPorts } from '../ports';

// A real SQLite database and a real SMTP server on loopback that keeps what it receives.
tempDatabase('reset');
const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, done) {
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString()));
    stream.on('end', () => {
      received.push(text);
      done();
    });
  },
});
let port = 0;

beforeAll(async () => {
  process.env.PUBLIC_URL = 'https://keyout.example.com';
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  port = (smtp.server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
  delete process.env.SMTP_URL;
  delete process.env.PUBLIC_URL;
  resetEnvForTests();
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('password reset', () => {
  it('issues a one-time link that sets a new password and ends every session', async () => {
    const created = await signUp(defaultPorts, {
      email: 'reset@example.com',
      password: 'old password 123',
    });
    if (!created.ok) throw new Error(created.error);
    await db().session.create({
      data: {
        sessionToken: 'stolen',
        userId: created.userId,
        expires: new Date(Date.now() + 3600_000),
      },
    });
    expect(await issueResetLink(defaultPorts, 'nobody@example.com')).toBeNull();

    const first = await issueResetLink(defaultPorts, 'Reset@Example.com');
    const issued = await issueResetLink(defaultPorts, 'reset@example.com');
    expect(issued!.link).toMatch(
      /^https:\/\/keyout\.example\.com\/reset-password\?token=[\w-]{43}$/,
    );
    // replaced by the newer link
    expect(await resetTokenValid(defaultPorts, tokenOf(first!.link))).toBe(false);
    expect(await resetTokenValid(defaultPorts, tokenOf(issued!.link))).toBe(true);

    expect(await resetPassword(defaultPorts, tokenOf(issued!.link), 'short')).toMatchObject({
      ok: false,
      error: expect.stringContaining('10 characters') as string,
    });
    expect(await resetPassword(defaultPorts, tokenOf(issued!.link), 'new password 456')).toEqual({
      ok: true,
      userId: created.userId,
    });
    expect(await authenticateUser(defaultPorts, 'reset@example.com', 'new password 456')).toBe(
      created.userId,
    );
    expect(
      await authenticateUser(defaultPorts, 'reset@example.com', 'old password 123'),
    ).toBeNull();
    expect(await db().session.count({ where: { userId: created.userId } })).toBe(0);
    // Once only.
    expect(
      await resetPassword(defaultPorts, tokenOf(issued!.link), 'another password 789'),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await resetPassword(defaultPorts, 'made-up-token', 'another password 789'),
    ).toMatchObject({
      ok: false,
    });
  });

  it('refuses an expired link', async () => {
    // Issued a second more than its lifetime ago.
    const past = new Date(Date.now() - RESET_LINK_TTL_MS - 1000);
    const issued = await issueResetLink(
      { ...defaultPorts, clock: { now: () => past } },
      'reset@example.com',
    );
    expect(await resetTokenValid(defaultPorts, tokenOf(issued!.link))).toBe(false);
    expect(
      await resetPassword(defaultPorts, tokenOf(issued!.link), 'new password 456'),
    ).toMatchObject({
      ok: false,
      error: expect.stringContaining('expired') as string,
    });
  });

  it(
    'e-mails the link only when SMTP is configured, and never says ' + 'whether the account exists',
    async () => {
      expect(await requestResetByEmail(defaultPorts, 'reset@example.com')).toEqual({
        emailed: false,
      });
      expect(received).toEqual([]);
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      resetEnvForTests();
      expect(await requestResetByEmail(defaultPorts, 'reset@example.com')).toEqual({
        emailed: true,
      });
      expect(await requestResetByEmail(defaultPorts, 'nobody@example.com')).toEqual({
        emailed: true,
      });
      expect(received).toHaveLength(1);
      const mail = received[0]!.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(mail).toContain('To: reset@example.com');
      const link = /https:\/\/keyout\.example\.com\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
      expect(await resetTokenValid(defaultPorts, tokenOf(link!))).toBe(true);
    },
  );
});
