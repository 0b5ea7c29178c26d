import nodemailer from 'nodemailer';
import { env } from './env';

/** Whether this server can send e-mail (SMTP_URL is set). */
export const canSendMail = (): boolean => Boolean(env().SMTP_URL);

/**
 * Sends a plain-text e-mail through SMTP_URL (nodemailer); throws when SMTP is not configured or
 * refuses.
 */
export async function sendMail(to: string, subject: string, text: string): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) throw new Error('SMTP_URL is not configured');
  const transport = nodemailer.createTransport(SMTP_URL, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: MAIL_FROM, to, subject, text });
  } finally {
    transport.close();
  }
}
