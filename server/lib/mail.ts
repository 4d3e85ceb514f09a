import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

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
}): Mailer {
  if (options.smtpUrl) {
    // A hung mail server must not hold a registration for minutes (nodemailer's defaults).
    const transport = nodemailer.createTransport(withSmtpTimeouts(options.smtpUrl));
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  const folder = path.join(options.dataDir, 'mail');
  return {
    async send(mail) {
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(folder, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
      await fs.writeFile(file, `${JSON.stringify({ ...mail, sentAt: new Date().toISOString() }, null, 2)}\n`);
      options.log.info({ to: mail.to, subject: mail.subject, link: mail.link, file }, `Mail: ${mail.link}`);
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
