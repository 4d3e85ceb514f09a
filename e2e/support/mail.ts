import fs from 'node:fs/promises';
import path from 'node:path';
import { e2eEnv } from './env';

/** A mail as the server writes it to DATA_DIR/mail when no SMTP server is configured. */
export type SentMail = { to: string; subject: string; text: string; link: string; sentAt: string };

/**
 * The newest mail sent to an address. Waits a little for it (up to `timeoutMs`), since a journey
 * usually asks right after the action that sends it.
 */
export async function readLastMail(
  to: string,
  options: { timeoutMs?: number; since?: Date } = {},
): Promise<SentMail> {
  const folder = path.join(e2eEnv().dataDir, 'mail');
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const mails = await readMails(folder);
    const match = mails
      .filter((mail) => mail.to.toLowerCase() === to.toLowerCase())
      .filter((mail) => !options.since || new Date(mail.sentAt) >= options.since)
      .at(-1);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} arrived in ${folder}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every mail in the folder, oldest first. */
async function readMails(folder: string): Promise<SentMail[]> {
  let names: string[];
  try {
    names = (await fs.readdir(folder)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const mails: SentMail[] = [];
  for (const name of names) {
    try {
      mails.push(JSON.parse(await fs.readFile(path.join(folder, name), 'utf8')) as SentMail);
    } catch {
      // Being written right now: the next poll reads it.
    }
  }
  // sentAt is an ISO timestamp, so text order is time order.
  return mails.sort((a, b) => a.sentAt.localeCompare(b.sentAt));
}
