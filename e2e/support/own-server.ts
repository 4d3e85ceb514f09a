import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import type { Actor } from './fixtures';
import { findFreePort, stopServer, waitForHealth } from './server-process';
import type { TestUser } from './users';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, 'e2e', '.artifacts');

/**
 * A server of a journey's own, for journeys that stop and start it (the shared one of global-setup.ts
 * serves the other journeys and stays up). Started as global-setup starts the shared one: the built web
 * app (global-setup builds it), a fresh embedded database in a temporary DATA_DIR, a free port in
 * 3400–3449, nothing from the caller's DATABASE_URL, REDIS_URL or SMTP_URL. `stop()` and `start()` keep
 * the DATA_DIR and the port, so the server comes back with its data; `dispose()` stops it and removes
 * the data.
 */
export type OwnServer = {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** Starts it (again) and waits until /api/health answers. */
  start: () => Promise<void>;
  /** SIGTERM, and waits for the process to exit (SIGKILL after 15 s). */
  stop: () => Promise<void>;
  dispose: () => Promise<void>;
  /** The newest mail the server wrote to an address (DATA_DIR/mail, no SMTP). */
  readLastMail: (to: string) => Promise<{ to: string; link: string; sentAt: string }>;
};

export async function startOwnServer(): Promise<OwnServer> {
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
    throw new Error(
      'The web app was not built (web/dist/index.html is missing): run the journeys with Playwright.',
    );
  }
  const port = await findFreePort(3400, 3449);
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-e2e-own-'));
  fs.mkdirSync(artifacts, { recursive: true });
  const logFile = path.join(artifacts, `own-server-${port}.log`);
  const log = fs.openSync(logFile, 'w');
  let server: ChildProcess | null = null;

  const start = async () => {
    if (server && server.exitCode === null && server.signalCode === null) return;
    const {
      DATABASE_URL: _database,
      DATABASE_APP_URL: _appDatabase,
      REDIS_URL: _redis,
      SMTP_URL: _smtp,
      JWT_SECRET: _secret,
      CORS_ORIGINS: _cors,
      ...inherited
    } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'index.ts')], {
      cwd: root,
      env: {
        ...inherited,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        TRUST_PROXY: 'true',
        LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
      },
      stdio: ['ignore', log, log],
    });
    server = child;
    try {
      await waitForHealth(child, baseUrl, logFile);
    } catch (error) {
      await stopServer(child);
      throw error;
    }
  };
  const stop = async () => {
    if (server) await stopServer(server);
  };

  const ownServer: OwnServer = {
    baseUrl,
    port,
    dataDir,
    start,
    stop,
    dispose: async () => {
      await stop();
      fs.closeSync(log);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    readLastMail: (to) => readLastMail(path.join(dataDir, 'mail'), to),
  };
  try {
    await start();
  } catch (error) {
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return ownServer;
}

let counter = 0;

/**
 * A verified user of the own server, signed in in a browser context of their own (whose base URL is the
 * own server, so the support/deals.ts helpers speak to it). Registered, verified and signed in through
 * that context's requests: the browser carries the sign-in's device cookie, so it is no "new device".
 */
export async function newActorOn(server: OwnServer, browser: Browser, name: string): Promise<Actor> {
  counter++;
  const username = `${name}_${Date.now().toString(36)}${process.pid.toString(36)}${counter}`.slice(0, 30);
  const user = {
    username,
    email: `${username.toLowerCase()}@example.test`,
    password: 'correct horse battery',
    full_name: `${name.charAt(0).toUpperCase()}${name.slice(1)} Tester`,
  };
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const n = (process.pid * 1000 + counter) % 65_536;
  const registered = await context.request.post('/api/auth/register', {
    data: user,
    // The server trusts X-Forwarded-For: each registration from its own address (see support/users.ts).
    headers: { 'x-forwarded-for': `198.18.${n >> 8}.${n & 255}` },
  });
  if (registered.status() !== 201) {
    throw new Error(`Registering ${username} failed (${registered.status()}): ${await registered.text()}`);
  }
  const mail = await server.readLastMail(user.email);
  const verified = await context.request.get(mail.link, { headers: { accept: 'application/json' } });
  if (!verified.ok())
    throw new Error(`Verifying ${username} failed (${verified.status()}): ${await verified.text()}`);
  const login = await context.request.post('/api/auth/login', {
    data: { username, password: user.password },
  });
  if (!login.ok())
    throw new Error(`Signing in ${username} failed (${login.status()}): ${await login.text()}`);
  const { token, user: signedIn } = (await login.json()) as { token: string; user: { id: number } };
  await context.addCookies([
    { name: 'auth_token', value: token, domain: 'localhost', path: '/', sameSite: 'Lax' },
  ]);
  const page = await context.newPage();
  const testUser: TestUser = { id: signedIn.id, ...user };
  return { user: testUser, context, page, token };
}

async function readLastMail(folder: string, to: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const names = fs.existsSync(folder)
      ? fs.readdirSync(folder).filter((name) => name.endsWith('.json'))
      : [];
    const mails = names
      .flatMap((name) => {
        try {
          return [
            JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as {
              to: string;
              link: string;
              sentAt: string;
            },
          ];
        } catch {
          // Being written right now: the next poll reads it.
          return [];
        }
      })
      .filter((mail) => mail.to.toLowerCase() === to.toLowerCase())
      .sort((a, b) => a.sentAt.localeCompare(b.sentAt));
    const last = mails.at(-1);
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} arrived in ${folder}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
