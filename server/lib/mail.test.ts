import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestDatabase } from '../test/test-database';
import { createMailer, framedMailLink, type Mail } from './mail';

type Received = { from: string | undefined; to: string[]; raw: string };

/** Quoted-printable bodies wrap long lines (such as links) with soft breaks. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

function fakeLog() {
  const infos: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    info: (fields: Record<string, unknown>, message: string) => infos.push({ fields, message }),
    error: () => {},
    warn: () => {},
    debug: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, infos };
}

const mail: Mail = {
  to: 'Someone@example.test',
  subject: 'Verify your Dealmaker account',
  text: 'Hello Someone,\n\nPlease open this link:\n\nhttps://deals.example.test/api/auth/register/abcDEF123_-xyz\n',
  link: 'https://deals.example.test/api/auth/register/abcDEF123_-xyz',
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dealmaker-mail-'));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('with SMTP_URL', () => {
  let smtp: SMTPServer;
  let smtpUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the mail through the SMTP server and writes no file', async () => {
    const { log } = fakeLog();
    const mailer = createMailer({ smtpUrl, from: 'Dealmaker <no-reply@dealmaker.test>', dataDir, log });
    const before = received.length;
    await mailer.send(mail);
    expect(received.length).toBe(before + 1);
    const message = received.at(-1)!;
    expect(message.from).toBe('no-reply@dealmaker.test');
    expect(message.to).toEqual(['Someone@example.test']);
    expect(message.raw).toMatch(/^From: Dealmaker <no-reply@dealmaker\.test>\r?$/m);
    expect(message.raw).toMatch(/^To: Someone@example\.test\r?$/m);
    expect(message.raw).toMatch(/^Subject: Verify your Dealmaker account\r?$/m);
    expect(decodeQuotedPrintable(message.raw)).toContain(mail.link);
    await expect(fs.readdir(path.join(dataDir, 'mail'))).rejects.toThrow();
  });

  it('fails when the SMTP server cannot be reached', async () => {
    const { log } = fakeLog();
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'x@example.test',
      dataDir,
      log,
    });
    await expect(mailer.send(mail)).rejects.toThrow();
  });

  it('carries the registration mail of the running app to the SMTP server', async () => {
    const database = await createTestDatabase();
    const config = {
      ...loadConfig({
        DATA_DIR: dataDir,
        SMTP_URL: smtpUrl,
        PUBLIC_URL: 'https://deals.example.test',
        MAIL_FROM: 'Deals <deals@example.test>',
        LOG_LEVEL: 'silent',
      }),
    };
    const app = await buildApp({ config, database, logger: false });
    try {
      const before = received.length;
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          username: 'smtp_user',
          email: 'smtp_user@example.test',
          password: 'long enough',
          full_name: 'S',
        },
      });
      expect(response.statusCode).toBe(201);
      expect(received.length).toBe(before + 1);
      const message = received.at(-1)!;
      expect(message.to).toEqual(['smtp_user@example.test']);
      expect(message.from).toBe('deals@example.test');
      expect(decodeQuotedPrintable(message.raw)).toMatch(
        /https:\/\/deals\.example\.test\/api\/auth\/register\/[A-Za-z0-9_-]{43}/,
      );
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail as JSON into DATA_DIR/mail and logs its link', async () => {
    const { log, infos } = fakeLog();
    const mailer = createMailer({ smtpUrl: undefined, from: 'x@example.test', dataDir, log, framed: false });
    await mailer.send(mail);
    await mailer.send({ ...mail, to: 'second@example.test' });

    const files = (await fs.readdir(path.join(dataDir, 'mail'))).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d+-[a-z0-9]+\.json$/);
    const written = await Promise.all(
      files.map(async (file) => JSON.parse(await fs.readFile(path.join(dataDir, 'mail', file), 'utf8'))),
    );
    const first = written.find((m) => m.to === mail.to);
    expect(first).toEqual({ ...mail, sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(written.map((m) => m.to).sort()).toEqual(['Someone@example.test', 'second@example.test']);

    expect(infos).toHaveLength(2);
    expect(infos[0]!.message).toBe(`Mail: ${mail.link}`);
    expect(infos[0]!.fields).toMatchObject({ to: mail.to, subject: mail.subject, link: mail.link });
  });
});

describe('the logged link on a terminal', () => {
  it('stands in a frame with the recipient and the subject', async () => {
    const { log, infos } = fakeLog();
    const mailer = createMailer({ smtpUrl: undefined, from: 'x@example.test', dataDir, log, framed: true });
    await mailer.send({ ...mail, link: 'http://localhost:3000/api/auth/register/abc' });
    expect(infos[0]!.fields).toMatchObject({ link: 'http://localhost:3000/api/auth/register/abc' });
    expect(infos[0]!.message).toBe(
      framedMailLink({ ...mail, link: 'http://localhost:3000/api/auth/register/abc' }),
    );
    const lines = infos[0]!.message.split('\n');
    expect(lines[0]).toBe('(not sent: no SMTP_URL)');
    expect(lines[2]).toBe(`┃ ${`Mail to ${mail.to}: ${mail.subject}`.padEnd(lines[1]!.length - 4)} ┃`);
    expect(lines[3]).toContain('┃ Open http://localhost:3000/api/auth/register/abc');
    expect(new Set(lines.slice(1).map((line) => line.length)).size).toBe(1);
  });
});
