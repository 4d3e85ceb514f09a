import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about (verification, reset); logged when no SMTP server is configured. */
  link: string;
};

export type Mailer = { send(mail: Mail): Promise<void> };

/** SMTP when SMTP_URL is set; otherwise each mail is written to DATA_DIR/mail/ and its link logged. */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** Draws a frame around the logged link, for a person watching a terminal (default: stdout is one). */
  framed?: boolean;
}): Mailer {
  if (options.smtpUrl) {
    // A hung mail server must not hold a registration for minutes (nodemailer's defaults).
    // Loaded with the first mail: a server without SMTP never needs it.
    const smtpUrl = withSmtpTimeouts(options.smtpUrl);
    let transport: Promise<{ sendMail(mail: object): Promise<unknown> }> | undefined;
    return {
      async send(mail) {
        transport ??= import('nodemailer').then(({ default: nodemailer }) =>
          nodemailer.createTransport(smtpUrl),
        );
        await (await transport).sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
      },
    };
  }
  const folder = path.join(options.dataDir, 'mail');
  const framed = options.framed ?? process.stdout.isTTY === true;
  return {
    async send(mail) {
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(folder, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
      await fs.writeFile(file, `${JSON.stringify({ ...mail, sentAt: new Date().toISOString() }, null, 2)}\n`);
      options.log.info(
        { to: mail.to, subject: mail.subject, link: mail.link, file },
        framed ? framedMailLink(mail) : `Mail: ${mail.link}`,
      );
    },
  };
}

/** Timeouts as URL options (nodemailer reads them from the query), unless SMTP_URL sets its own. */
function withSmtpTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const timeouts = { connectionTimeout: '10000', greetingTimeout: '10000', socketTimeout: '20000' };
  for (const [name, value] of Object.entries(timeouts)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  }
  return url.toString();
}

/**
 * The link of a mail that was not sent, framed so that a newcomer finds it among the other log lines:
 *
 *   ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
 *   ┃ Mail to ada@example.com: Verify your Dealmaker account ┃
 *   ┃ Open http://localhost:3000/api/auth/register/…        ┃
 *   ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛
 */
export function framedMailLink(mail: Pick<Mail, 'to' | 'subject' | 'link'>): string {
  const lines = [`Mail to ${mail.to}: ${mail.subject}`, `Open ${mail.link}`];
  const width = Math.max(...lines.map((line) => line.length));
  const bar = '━'.repeat(width + 2);
  return [
    '(not sent: no SMTP_URL)',
    `┏${bar}┓`,
    ...lines.map((line) => `┃ ${line.padEnd(width)} ┃`),
    `┗${bar}┛`,
  ].join('\n');
}
