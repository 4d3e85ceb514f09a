import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../contract/deals';
import { projectRoot } from '../paths';
import { createDeal, placeBid } from '../test/deal-fixtures';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { auditLedger } from '../test/ledger-audit';
import { dealWithDealmaker, deposit, payHalf } from '../test/money-fixtures';
import {
  createTestDatabase,
  dropDatabase,
  testAdminUrl,
  withAdmin,
  withDatabase,
} from '../test/test-database';
import {
  BackupError,
  type BackupResult,
  backupDataDir,
  backupFileName,
  checksumSuffix,
  listBackups,
  pruneBackups,
  restoreBackup,
  restoreIntoDataDir,
  startDailyBackups,
  writeBackup,
} from './backups';
import { type Database, openDatabase } from './client';
import { DataDirLockedError } from './lock';

/**
 * A marketplace with money, chats and a pending deadline, made through the HTTP API, backed up and
 * restored into a fresh embedded data folder and a fresh database on the test's PostgreSQL server
 * (the embedded one, or DATABASE_URL's in CI): servers started on both find everything as it was,
 * the books balance, and the deadline still runs. Then the refusals, and the daily backups' pruning.
 */

let folder: string;
let source: Database & { url: string };
let server: TestServer;
let people: Record<'alice' | 'bob' | 'carol' | 'dave', SignedUpUser>;
/** Each deal with its creator, who sees all of it. */
let deals: Array<{ deal: Deal; creator: SignedUpUser }>;
let loneHalf: Deal;
let backup: BackupResult;
let before: Snapshot;
const freshDatabase = `dealmaker_restored_${randomBytes(5).toString('hex')}`;
let freshUrl: string;
/** The data folder the backup is restored into. */
let embeddedDir: string | undefined;

type Snapshot = Record<string, unknown>;

/** Everything people see of the marketplace: balances, statements, notifications, deals, chats, escrows. */
async function snapshot(on: TestServer): Promise<Snapshot> {
  const seen: Snapshot = {};
  for (const [name, user] of Object.entries(people)) {
    seen[`${name} wallet`] = await ok(on.get('/api/wallet', { token: user.token }));
    seen[`${name} statement`] = await ok(on.get('/api/wallet/transactions?limit=100', { token: user.token }));
    seen[`${name} notifications`] = await ok(on.get('/api/notifications', { token: user.token }));
  }
  for (const { deal, creator } of deals) {
    const token = creator.token;
    seen[`deal ${deal.id}`] = await ok(on.get(`/api/deals/${deal.id}`, { token }));
    seen[`deal ${deal.id} messages`] = await ok(on.get(`/api/messages/deal/${deal.id}`, { token }));
    seen[`deal ${deal.id} escrow`] = await ok(on.get(`/api/wallet/escrow/${deal.id}`, { token }));
    seen[`deal ${deal.id} timeline`] = await ok(on.get(`/api/deals/${deal.id}/timeline`, { token }));
  }
  seen.search = await ok(on.get('/api/deals/all/restorable', { token: people.alice.token }));
  return seen;
}

const send = (on: TestServer, user: SignedUpUser, dealId: number, content: string) =>
  ok(on.post('/api/messages/send', { token: user.token, body: { dealId, content } }), 201);

/** Polls `check` until it holds (at most `withinMs`). */
async function eventually<T>(check: () => Promise<T | undefined | false>, withinMs: number): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > until) throw new Error(`not within ${withinMs} ms`);
    await sleep(200);
  }
}

/** Runs a command of package.json's scripts in its own process: its exit code and what it printed. */
function command(script: string, args: string[], env: { DATABASE_URL: string }) {
  // Never the project's own ./data: a data folder of the test's, empty.
  const dataDir = path.join(folder, 'command-data');
  expect(env.DATABASE_URL).toMatch(/^postgres/);
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(projectRoot, 'server', 'scripts', script), ...args],
      { cwd: projectRoot, env: { ...process.env, DATA_DIR: dataDir, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-backups-'));
  source = await createTestDatabase();
  server = await startTestServer({ database: source, keepDatabase: true });
  const [alice, bob, carol, dave] = await Promise.all([
    signUp(server, { full_name: 'Alice Ångström' }),
    signUp(server),
    signUp(server),
    signUp(server),
  ]);
  people = { alice, bob, carol, dave };
  await deposit(server, alice, 5_000.55);
  await deposit(server, bob, 3_000);
  await deposit(server, dave, 12.34);
  const locked = await dealWithDealmaker(
    server,
    { creator: alice, counterpart: bob, dealmaker: carol },
    1_000,
  );
  await ok(payHalf(server, alice, locked.id));
  await ok(payHalf(server, bob, locked.id));
  const chat = [
    'Hello Bob — ready when you are ✓',
    'Tabs\tand\nnew lines, a backslash \\ and "quotes" survive',
    'Ünïcödé 日本語 and an emoji 🤝',
    String.raw`\N is not NULL, \. is not the end`,
  ];
  for (const [index, content] of chat.entries())
    await send(server, index % 2 ? bob : alice, locked.id, content);
  await send(server, carol, locked.id, 'The dealmaker says hi');
  const open = await createDeal(server, dave, {
    title: 'Restorable office chairs',
    description: 'Forty chairs, restorable',
  });
  await placeBid(server, carol, open.id, 750);
  loneHalf = await dealWithDealmaker(server, { creator: alice, counterpart: bob, dealmaker: carol }, 200);
  await send(server, alice, loneHalf.id, 'Paying my half now');
  await ok(payHalf(server, alice, loneHalf.id));
  deals = [
    { deal: locked, creator: alice },
    { deal: open, creator: dave },
    { deal: loneHalf, creator: alice },
  ];
  before = await snapshot(server);
  expect(await auditLedger(server.db)).toEqual([]);

  backup = await writeBackup(source.url, path.join(folder, backupFileName(new Date())));
  console.log(
    `backup of the test marketplace: ${backup.rows} rows, ${backup.bytes} bytes, ${backup.ms} ms (${backup.file})`,
  );
  await server.close();
  server = undefined as unknown as TestServer;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await source?.close();
  if (freshUrl) await dropDatabase(testAdminUrl(), freshDatabase);
  await rm(folder, { recursive: true, force: true });
  if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
});

describe('a backup', () => {
  it('holds every table with its rows, the schema migration and a checksum', () => {
    expect(backup.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.readFileSync(`${backup.file}${checksumSuffix}`, 'utf8')).toBe(
      `${backup.sha256}  ${path.basename(backup.file)}\n`,
    );
    const rows = Object.fromEntries(backup.tables.map((table) => [table.name, table.rows]));
    expect(rows).toMatchObject({
      'public.users': 4,
      'public.deals': 3,
      'public.messages': 6,
      'public.wallets': 4,
      'public.bids': 1,
      // escrow-half-expiry, milestone-auto-release, dispute-escalation, saved-search-mail.
      'pgboss.queue': 4,
    });
    expect(rows['public.ledger_transfers']).toBeGreaterThanOrEqual(6);
    expect(rows['public.audit_log']).toBeGreaterThan(0);
    // The lone half's refund is a pending job: it must come back.
    expect(rows['pgboss.job']).toBeGreaterThanOrEqual(1);
    expect(backup.migration).toMatch(/^\d{4}_/);
  });
});

describe('restored', () => {
  let embedded: TestServer;
  let database: TestServer;

  it('into a fresh data folder and a fresh database, servers on them find everything as it was', async () => {
    // A folder of its own in the temp folder: as root, the cluster runs as `postgres`, who must reach it.
    embeddedDir = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-restored-'));
    const intoFolder = await restoreIntoDataDir(embeddedDir, backup.file);
    expect(intoFolder.rows).toBe(backup.rows);
    await withAdmin(testAdminUrl(), (client) => client.query(`CREATE DATABASE ${freshDatabase}`));
    freshUrl = withDatabase(testAdminUrl(), freshDatabase);
    const intoDatabase = await restoreBackup(backup.file, freshUrl);
    expect(intoDatabase.tables).toEqual(backup.tables);

    const deadlines = { jobPollingSeconds: 0.5 };
    embedded = await startTestServer({
      database: await openDatabase({ kind: 'embedded', dataDir: embeddedDir }),
      config: deadlines,
    });
    database = await startTestServer({
      database: await openDatabase({ kind: 'postgres', url: freshUrl, poolSize: 5 }),
      config: deadlines,
    });
    for (const restored of [embedded, database]) {
      expect(restored.database.login.restricted).toBe(true);
      const after = await snapshot(restored);
      const escrow = after[`deal ${loneHalf.id} escrow`] as { expiresAt: string };
      if (Date.now() >= Date.parse(escrow.expiresAt))
        throw new Error('too slow: the lone half expired already');
      expect(after).toEqual(before);
      expect(await auditLedger(restored.db)).toEqual([]);
    }
  }, 120_000);

  it('keeps working: signed-in users stay signed in, new rows get new ids, the audit log stays append-only', async () => {
    const { alice, bob } = people;
    for (const restored of [embedded, database]) {
      const message = await send(restored, bob, deals[0]!.deal.id, 'Written after the restore');
      const history = await ok<Array<{ id: number }>>(
        restored.get(`/api/messages/deal/${deals[0]!.deal.id}`, { token: alice.token }),
      );
      expect(Math.max(...history.slice(0, -1).map((m) => m.id))).toBeLessThan((message as { id: number }).id);
      await deposit(restored, alice, 1);
      await expect(restored.database.executeSql('DELETE FROM audit_log')).rejects.toThrow(
        /permission denied/,
      );
      expect(await auditLedger(restored.db)).toEqual([]);
    }
  });

  it("keeps the backup's pending deadlines, and runs them: the lone half is refunded by itself", async () => {
    const { alice } = people;
    const cents = (dollars: number) => Math.round(dollars * 100);
    // Before the backup, plus the dollar deposited after the restore.
    const balanceBefore = cents((before['alice wallet'] as { balance: number }).balance) + 100;
    const pending = async (on: Database) =>
      (
        await on.executeSql(
          `SELECT id, name, data, state, start_after::text AS "startAfter" FROM pgboss.job
            WHERE name = 'escrow-half-expiry' AND state = 'created' ORDER BY id`,
        )
      ).rows;
    const backedUp = await pending(source);
    // The lone half's refund (and the locked deal's, which will find nothing to do).
    expect(backedUp).toContainEqual(expect.objectContaining({ data: { dealId: loneHalf.id } }));
    for (const restored of [embedded, database]) {
      expect(await pending(restored.database)).toEqual(backedUp);
      // Its 72 hours, brought forward to now: the restored server's job worker refunds the half.
      // The deadline is the milestone's being funded (the escrow row shows it too).
      for (const table of ['escrows', 'milestones']) {
        await restored.database.executeSql(
          `UPDATE ${table} SET lone_half_expires_at = now() - interval '1 second' WHERE deal_id = $1`,
          [loneHalf.id],
        );
      }
      await restored.database.executeSql(
        "UPDATE pgboss.job SET start_after = now() WHERE name = 'escrow-half-expiry' AND state = 'created'",
      );
      await eventually(async () => {
        const escrow = await ok<{ escrow: { creatorPaid: boolean } }>(
          restored.get(`/api/wallet/escrow/${loneHalf.id}`, { token: alice.token }),
        );
        return !escrow.escrow.creatorPaid;
      }, 20_000);
      const wallet = await ok<{ balance: number }>(restored.get('/api/wallet', { token: alice.token }));
      expect(cents(wallet.balance)).toBe(balanceBefore + 10_000);
      expect(await auditLedger(restored.db)).toEqual([]);
    }
  }, 60_000);

  it('backs up an embedded data folder with its server running, and without', async () => {
    const running = await backupDataDir(embeddedDir!, path.join(folder, 'running.backup.gz'));
    // Restoring into the folder a server runs on is refused: its lock.
    await expect(restoreIntoDataDir(embeddedDir!, backup.file, { force: true })).rejects.toBeInstanceOf(
      DataDirLockedError,
    );
    await embedded.close();
    const stopped = await backupDataDir(embeddedDir!, path.join(folder, 'stopped.backup.gz'));
    expect(stopped.tables).toEqual(running.tables);
    expect(stopped.tables.find((table) => table.name === 'public.messages')?.rows).toBe(7);
    await database.close();
  }, 60_000);
});

describe('a restore refuses', () => {
  it('a database that is not empty, and leaves it as it was; --force replaces it', async () => {
    const refused = await restoreBackup(backup.file, freshUrl).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupError);
    expect(refused).toMatchObject({ exitCode: 3, message: expect.stringMatching(/not empty.*--force/) });
    const messages = async () =>
      withAdmin(
        freshUrl,
        async (client) => (await client.query('SELECT count(*)::int AS n FROM messages')).rows[0].n,
      );
    expect(await messages()).toBe(7);
    const forced = await restoreBackup(backup.file, freshUrl, { force: true });
    expect(forced.tables).toEqual(backup.tables);
    expect(await messages()).toBe(6);
  }, 60_000);

  it('a damaged file, one without its checksum, and one whose rows do not match its manifest', async () => {
    const damaged = path.join(folder, 'damaged.backup.gz');
    const bytes = fs.readFileSync(backup.file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    fs.copyFileSync(`${backup.file}${checksumSuffix}`, `${damaged}${checksumSuffix}`);
    const target = withDatabase(testAdminUrl(), `${freshDatabase}_x`);
    await expect(restoreBackup(damaged, target)).rejects.toMatchObject({
      exitCode: 4,
      message: expect.stringMatching(/is damaged: its SHA-256 is [0-9a-f]{64}, its checksum file says/),
    });

    const unchecked = path.join(folder, 'unchecked.backup.gz');
    fs.copyFileSync(backup.file, unchecked);
    await expect(restoreBackup(unchecked, target)).rejects.toMatchObject({
      exitCode: 4,
      message: expect.stringMatching(/checksum file .* is missing/),
    });

    // Rewritten with a valid checksum but a changed row: the manifest's checksum of that table catches it,
    // and the database the restore had begun to fill is left empty again.
    const forged = path.join(folder, 'forged.backup.gz');
    const text = gunzipSync(fs.readFileSync(backup.file)).toString().replace('Hello Bob', 'Hello Rob');
    fs.writeFileSync(forged, gzipSync(text));
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(fs.readFileSync(forged)).digest('hex');
    fs.writeFileSync(`${forged}${checksumSuffix}`, `${sha}  forged.backup.gz\n`);
    await withAdmin(testAdminUrl(), (client) => client.query(`CREATE DATABASE ${freshDatabase}_x`));
    try {
      await expect(restoreBackup(forged, target)).rejects.toMatchObject({
        exitCode: 4,
        message: expect.stringMatching(/does not match its own manifest: public\.messages's rows/),
      });
      const left = await withAdmin(target, async (client) => {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname IN ('public', 'pgboss', 'drizzle') AND c.relkind IN ('r', 'p', 'S')`,
        );
        return rows[0].n;
      });
      expect(left).toBe(0);
    } finally {
      await dropDatabase(testAdminUrl(), `${freshDatabase}_x`);
    }
  }, 60_000);

  it('from the command line, with its exit codes', async () => {
    const notEmpty = await command('restore.ts', [backup.file], { DATABASE_URL: freshUrl });
    expect(notEmpty).toMatchObject({ code: 3, output: expect.stringMatching(/not empty/) });
    const damaged = await command('restore.ts', [path.join(folder, 'damaged.backup.gz')], {
      DATABASE_URL: freshUrl,
    });
    expect(damaged).toMatchObject({ code: 4, output: expect.stringMatching(/damaged/) });
    const out = `${path.join(folder, 'from-the-command')}/`;
    const made = await command('backup.ts', ['--out', out], { DATABASE_URL: freshUrl });
    expect(made).toMatchObject({ code: 0, output: expect.stringMatching(/Backup written/) });
    expect(listBackups(out)).toHaveLength(1);
  }, 60_000);
});

describe('daily backups', () => {
  const log = { info: () => {}, error: (_: object, message: string) => console.error(message) };
  const day = 24 * 3_600_000;
  const fakeBackup = (dir: string, at: Date, kind: 'daily' | 'manual') => {
    const file = path.join(dir, backupFileName(at, kind));
    fs.writeFileSync(file, 'old');
    fs.writeFileSync(`${file}${checksumSuffix}`, 'old');
    return file;
  };

  it('keeps the newest N daily ones and leaves the others alone', () => {
    const dir = path.join(folder, 'prune');
    fs.mkdirSync(dir);
    const daily = [1, 2, 3, 4, 5].map((days) => fakeBackup(dir, new Date(Date.now() - days * day), 'daily'));
    const manual = fakeBackup(dir, new Date(Date.now() - 10 * day), 'manual');
    expect(pruneBackups(dir, 3).sort()).toEqual([daily[3], daily[4]].sort());
    expect(listBackups(dir).map((entry) => entry.file)).toEqual([...daily.slice(0, 3), manual]);
    expect(fs.existsSync(`${daily[4]}${checksumSuffix}`)).toBe(false);
    expect(fs.existsSync(`${manual}${checksumSuffix}`)).toBe(true);
  });

  it('takes one when the newest is a day old, prunes to BACKUPS_KEPT, and none when it is recent', async () => {
    const dataDir = path.join(folder, 'daily');
    const dir = path.join(dataDir, 'backups');
    fs.mkdirSync(dir, { recursive: true });
    const old = [2, 3, 4].map((days) => fakeBackup(dir, new Date(Date.now() - days * day), 'daily'));
    const daily = startDailyBackups({
      config: { dataDir, backupsKept: 2 },
      database: { kind: 'embedded' },
      log,
      ownerUrl: source.url,
    });
    await daily.check();
    const after = listBackups(dir);
    expect(after).toHaveLength(2);
    expect(after[0]!.daily).toBe(true);
    expect(Date.now() - after[0]!.takenAt.getTime()).toBeLessThan(60_000);
    expect(after[1]!.file).toBe(old[0]);
    expect(fs.existsSync(`${after[0]!.file}${checksumSuffix}`)).toBe(true);
    await daily.check();
    expect(listBackups(dir)).toHaveLength(2);
    await daily.stop();

    for (const quiet of [
      { config: { dataDir, backupsKept: 0 }, database: { kind: 'embedded' as const } },
      { config: { dataDir, backupsKept: 2 }, database: { kind: 'postgres' as const } },
    ]) {
      const none = startDailyBackups({ ...quiet, log, ownerUrl: source.url, maxAgeMs: 0 });
      await none.check();
      await none.stop();
    }
    expect(listBackups(dir)).toHaveLength(2);
  }, 60_000);

  it('stopping abandons a backup under way and leaves no partial file', async () => {
    const dataDir = path.join(folder, 'stopping');
    const daily = startDailyBackups({
      config: { dataDir, backupsKept: 2 },
      database: { kind: 'embedded' },
      log,
      ownerUrl: source.url,
    });
    const pending = daily.check();
    await daily.stop();
    await pending;
    const dir = path.join(dataDir, 'backups');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });
});
