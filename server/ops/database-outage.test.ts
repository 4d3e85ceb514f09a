import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { auditLedger } from '../test/ledger-audit';
import { startOwnPostgres } from '../test/own-postgres';

/**
 * The database goes away for ten seconds while people deposit and read: every call answers at once
 * (200, or 503 UNAVAILABLE — never a 500 or a hang), /api/ready says so, the server is back by itself
 * within five seconds of the database, and the deposits the clients retry with their Idempotency-Keys
 * are each in the books exactly once.
 */
const unavailableBody = {
  message: 'The service is briefly unavailable. Please try again in a moment.',
  code: 'UNAVAILABLE',
};

let postgres: Awaited<ReturnType<typeof startOwnPostgres>>;
let database: Database;
let server: TestServer;
let people: SignedUpUser[];

beforeAll(async () => {
  postgres = await startOwnPostgres();
  database = await openDatabase({ kind: 'postgres', url: postgres.url });
  server = await startTestServer({ database, keepDatabase: true });
  people = [];
  for (let i = 0; i < 3; i++) people.push(await signUp(server));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await database?.close().catch(() => undefined);
  await postgres?.remove();
});

type Call = {
  kind: 'deposit' | 'wallet' | 'deals';
  person: SignedUpUser;
  status: number;
  body: unknown;
  ms: number;
  at: number;
  key?: string;
};

describe('the database going away for ten seconds', () => {
  it('answers 503 at once meanwhile, recovers by itself, and loses no acknowledged money', async () => {
    const calls: Call[] = [];
    let running = true;
    const timed = async (
      kind: Call['kind'],
      person: SignedUpUser,
      send: () => Promise<{ status: number; body: unknown }>,
      key?: string,
    ) => {
      const started = Date.now();
      const answer = await send();
      const at = Date.now();
      calls.push({ kind, person, status: answer.status, body: answer.body, ms: at - started, at, key });
    };
    const worker = async (person: SignedUpUser) => {
      while (running) {
        const key = randomUUID();
        await timed(
          'deposit',
          person,
          () =>
            server.post('/api/wallet/deposit', {
              token: person.token,
              body: { amount: 1 },
              headers: { 'idempotency-key': key },
            }),
          key,
        );
        await timed('wallet', person, () => server.get('/api/wallet', { token: person.token }));
        await timed('deals', person, () => server.get('/api/deals/all', { token: person.token }));
        await sleep(50);
      }
    };
    const workers = people.map(worker);

    await sleep(1_500);
    const wentAway = Date.now();
    await postgres.stop();
    await sleep(3_000);
    const ready = await server.get('/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      message: 'Not ready: the database is not answering.',
      code: 'UNAVAILABLE',
      checks: { database: 'down' },
    });
    await sleep(7_000);
    await postgres.start();
    const cameBack = Date.now();
    // Until every kind of call has succeeded again after the database's return.
    while (
      !(['deposit', 'wallet', 'deals'] as const).every((kind) =>
        calls.some((call) => call.kind === kind && call.at > cameBack && call.status === 200),
      ) &&
      Date.now() - cameBack < 30_000
    ) {
      await sleep(100);
    }
    const recoveredAt = Math.max(
      ...(['deposit', 'wallet', 'deals'] as const).map(
        (kind) =>
          calls.find((call) => call.kind === kind && call.at > cameBack && call.status === 200)?.at ??
          Infinity,
      ),
    );
    await sleep(500);
    running = false;
    await Promise.all(workers);

    const during = calls.filter((call) => call.at > wentAway + 1_000 && call.at < cameBack);
    console.log(
      `database outage: ${calls.length} calls, ${calls.filter((c) => c.status === 503).length} answered 503, ` +
        `slowest ${Math.max(...calls.map((c) => c.ms))} ms, recovered ${recoveredAt - cameBack} ms after the database`,
    );
    // Every call was answered 200 or 503 with the error model, and none waited long.
    expect(calls.filter((call) => call.status !== 200 && call.status !== 503)).toEqual([]);
    for (const call of calls.filter((c) => c.status === 503)) expect(call.body).toEqual(unavailableBody);
    expect(Math.max(...calls.map((call) => call.ms))).toBeLessThan(6_000);
    // While it was away, calls were refused (and kept coming: no hang).
    expect(during.length).toBeGreaterThan(10);
    // Every deposit was refused; reads the server had cached (a page of the deals list) may still answer.
    const depositsDuring = during.filter((call) => call.kind === 'deposit');
    expect(depositsDuring.length).toBeGreaterThan(3);
    expect(depositsDuring.every((call) => call.status === 503)).toBe(true);
    expect(during.filter((call) => call.kind === 'wallet').every((call) => call.status === 503)).toBe(true);
    // Back by itself within five seconds of the database.
    expect(recoveredAt - cameBack).toBeLessThanOrEqual(5_000);
    expect((await server.get('/api/ready')).status).toBe(200);

    // The clients retry every refused deposit with its key: each deposit is then in the books once
    // (a refused call whose transaction had committed answers its first answer; one that had not
    // deposits now).
    const refusedDeposits = calls.filter((call) => call.kind === 'deposit' && call.status === 503);
    expect(refusedDeposits.length).toBeGreaterThan(0);
    for (const call of refusedDeposits) {
      const retried = await server.post('/api/wallet/deposit', {
        token: call.person.token,
        body: { amount: 1 },
        headers: { 'idempotency-key': call.key! },
      });
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    }
    for (const person of people) {
      const keys = new Set(
        calls.filter((c) => c.kind === 'deposit' && c.person === person).map((c) => c.key),
      );
      const wallet = await server.get('/api/wallet', { token: person.token });
      expect(wallet.body.balance).toBe(keys.size);
      const history = await server.get('/api/wallet/transactions?limit=100&type=deposit', {
        token: person.token,
      });
      expect(history.status).toBe(200);
      expect(history.body.length).toBe(Math.min(keys.size, 100));
    }
    expect(await auditLedger(database.db)).toEqual([]);
    console.log(
      `database outage: ${refusedDeposits.length} deposits refused with 503 and retried with their keys`,
    );
  }, 120_000);
});
