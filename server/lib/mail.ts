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
    const transport = nodemailer.createTransport(options.smtpUrl);
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
