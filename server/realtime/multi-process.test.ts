import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitForHealth } from '../test/server-process';
import { TestClients } from '../test/socket-client';
import { testAdminUrl, withAdmin, withDatabase } from '../test/test-database';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Two real server processes (`server/index.ts`, as `npm start` runs it) on one PostgreSQL database and one
 * Redis, as two instances behind a load balancer: a user on each chats, types and sees deal updates from
 * the other. Runs when REDIS_URL is set (on the run's PostgreSQL: DATABASE_URL, or the embedded server), as
 * in CI's second server run.
 */
describe.skipIf(!process.env.REDIS_URL)('two server processes', () => {
  const adminUrl = testAdminUrl();
  const databaseName = `dealmaker_processes_${randomBytes(5).toString('hex')}`;
  const instances: Array<{ child: ChildProcess; url: string; dataDir: string }> = [];
  let clients: TestClients;

  beforeAll(async () => {
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${databaseName}`));
    const secret = randomBytes(32).toString('hex');
    // Both start together: migrations run once under their advisory lock.
    await Promise.all([0, 1].map(() => startInstance(secret)));
    clients = new TestClients(instances[0]!.url);
  }, 90_000);

  afterAll(async () => {
    clients?.closeAll();
    await Promise.all(instances.map((instance) => stopInstance(instance)));
    await withAdmin(adminUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`),
    );
  }, 30_000);

  async function startInstance(secret: string) {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-instance-'));
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: withDatabase(adminUrl, databaseName),
        REDIS_URL: process.env.REDIS_URL,
        JWT_SECRET: secret,
        PUBLIC_URL: url,
        LOG_LEVEL: 'warn',
        // Each sign-up below comes from its own address (x-forwarded-for): the machine's Redis keeps the
        // per-address registration limit between runs, so a fixed 127.0.0.1 would be refused (429) once
        // earlier runs within the hour have used it up.
        TRUST_PROXY: 'true',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    instances.push({ child, url, dataDir });
    await waitForHealth(url);
  }

  async function signUp(instance: { url: string; dataDir: string }, username: string) {
    const email = `${username}@example.test`;
    const password = 'correct horse battery';
    const register = await post(
      instance.url,
      '/api/auth/register',
      { username, email, password, full_name: `User ${username}` },
      undefined,
      { 'x-forwarded-for': randomTestAddress() },
    );
    expect(register.status).toBe(201);
    // Without SMTP each instance writes its mails to its own DATA_DIR/mail.
    const folder = path.join(instance.dataDir, 'mail');
    const mails = await Promise.all(
      (await readdir(folder)).map(async (f) => JSON.parse(await readFile(path.join(folder, f), 'utf8'))),
    );
    const link: string = mails.find((mail) => mail.to === email).link;
    expect((await fetch(link, { headers: { accept: 'application/json' } })).status).toBe(200);
    const login = await post(instance.url, '/api/auth/login', { username, password });
    expect(login.status).toBe(200);
    return { token: login.body.token as string, id: login.body.user.id as number };
  }

  it('carries chat, typing and deal updates between users on different processes', async () => {
    const [one, two] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const suffix = randomBytes(3).toString('hex');
    const alice = await signUp(one, `alice_${suffix}`);
    const bob = await signUp(two, `bob_${suffix}`);

    const aliceSocket = await clients.connect(alice.token, one.url);
    const bobSocket = await clients.connect(bob.token, two.url);

    const deal = await post(
      one.url,
      '/api/deals/create-deal',
      { title: 'Across instances', description: 'Two processes', budget: 10, timeline: '1 week' },
      alice.token,
    );
    expect(deal.status).toBe(201);
    // Created on process one, seen by bob's socket on process two.
    await bobSocket.waitFor('deal-updated', (p) => p.dealId === deal.body.id && p.updateType === 'created');

    expect((await put(two.url, `/api/deals/join-deal-as-dealer/${deal.body.id}`, bob.token)).status).toBe(
      200,
    );
    await aliceSocket.waitFor('deal-updated', (p) => p.dealId === deal.body.id && p.updateType === 'joined');

    expect(await aliceSocket.joinDeal(deal.body.id)).toEqual({ ok: true });
    expect(await bobSocket.joinDeal(deal.body.id)).toEqual({ ok: true });

    bobSocket.socket.emit('user-typing-start', { dealId: deal.body.id });
    const typing = await aliceSocket.waitFor(
      'typing-updated',
      (p) => p.dealId === deal.body.id && p.isTyping,
    );
    expect(typing.userInfo).toEqual({
      id: bob.id,
      username: `bob_${suffix}`,
      full_name: `User bob_${suffix}`,
    });

    const sent = await post(
      two.url,
      '/api/messages/send',
      { dealId: deal.body.id, content: 'Hello from two' },
      bob.token,
    );
    expect(sent.status).toBe(201);
    const received = await aliceSocket.waitFor('message-updated', (p) => p.messageData.id === sent.body.id);
    expect(received).toEqual({ dealId: deal.body.id, messageData: sent.body, updateType: 'sent' });

    const reply = await post(
      one.url,
      '/api/messages/send',
      { dealId: deal.body.id, content: 'Hi from one' },
      alice.token,
    );
    await bobSocket.waitFor('message-updated', (p) => p.messageData.id === reply.body.id);
  }, 60_000);
});

/** An address of the benchmarking range 198.18.0.0/15, random so that no two runs share one. */
function randomTestAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `198.${18 + (a! & 1)}.${b}.${c}`;
}

async function post(
  base: string,
  route: string,
  body: unknown,
  token?: string,
  extraHeaders: Record<string, string> = {},
) {
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function put(base: string, route: string, token: string) {
  const response = await fetch(`${base}${route}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function stopInstance(instance: { child: ChildProcess; dataDir: string }) {
  if (instance.child.exitCode === null) {
    const exited = new Promise((resolve) => instance.child.once('exit', resolve));
    instance.child.kill('SIGTERM');
    await exited;
  }
  await rm(instance.dataDir, { recursive: true, force: true });
}
