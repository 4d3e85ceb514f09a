import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitForHealth } from '../test/server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The server as `npm start` runs it, on its embedded database, whose PostgreSQL is killed with `kill -9`:
 * the server starts it again and carries on (calls meanwhile answer 503, never 500), nothing committed is
 * lost, and a SIGTERM afterwards still stops everything cleanly.
 */
let child: ChildProcess;
let url: string;
let dataDir: string;
let output = '';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-embedded-kill-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _database, REDIS_URL: _redis, SMTP_URL: _smtp, ...inherited } = process.env;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  await waitForHealth(url);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function call(method: string, route: string, token?: string, body?: unknown, headers = {}) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The pid of the embedded PostgreSQL's postmaster, from its lock file. */
const postmasterPid = () =>
  Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('the embedded database killed with kill -9', () => {
  it('is started again by the server, which carries on with every committed change', async () => {
    const username = `kill_${randomBytes(3).toString('hex')}`;
    const email = `${username}@example.test`;
    const password = 'correct horse battery';
    const registered = await call('POST', '/api/auth/register', undefined, {
      username,
      email,
      password,
      full_name: 'Kill Test',
    });
    expect(registered.status).toBe(201);
    // Without SMTP the server writes its mails to DATA_DIR/mail.
    const folder = path.join(dataDir, 'mail');
    const mails = fs
      .readdirSync(folder)
      .map((file) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')));
    const link: string = mails.find((mail) => mail.to === email).link;
    expect((await fetch(link, { headers: { accept: 'application/json' } })).status).toBe(200);
    const token: string = (await call('POST', '/api/auth/login', undefined, { username, password })).body
      .token;
    const deposited = await call(
      'POST',
      '/api/wallet/deposit',
      token,
      { amount: 25 },
      { 'idempotency-key': randomUUID() },
    );
    expect(deposited.status).toBe(200);

    const killed = postmasterPid();
    process.kill(killed, 'SIGKILL');
    const killedAt = Date.now();
    const statuses: number[] = [];
    let balance: number | undefined;
    while (Date.now() - killedAt < 30_000) {
      const wallet = await call('GET', '/api/wallet', token);
      statuses.push(wallet.status);
      if (wallet.status === 503) expect(wallet.body.code).toBe('UNAVAILABLE');
      if (wallet.status === 200 && statuses.includes(503)) {
        balance = wallet.body.balance;
        break;
      }
      await sleep(100);
    }
    const recoveredIn = Date.now() - killedAt;
    console.log(
      `embedded kill -9: serving again after ${recoveredIn} ms (${statuses.length} calls meanwhile)`,
    );
    // Only 200 and 503 while it was away; the server process itself lived on.
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(child.exitCode).toBe(null);
    expect(balance).toBe(25);
    expect(postmasterPid()).not.toBe(killed);
    expect(output).toContain('The embedded database stopped (killed by SIGKILL); starting it again.');
    expect(output).toContain('The embedded database is running again.');
    // And it goes on working.
    const again = await call(
      'POST',
      '/api/wallet/deposit',
      token,
      { amount: 5 },
      { 'idempotency-key': randomUUID() },
    );
    expect(again.status).toBe(200);
    expect((await call('GET', '/api/wallet', token)).body.balance).toBe(30);

    // A SIGTERM then stops the server and its database cleanly.
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 90_000);
});
