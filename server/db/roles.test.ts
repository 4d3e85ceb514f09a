import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { dealWithDealmaker, deposit } from '../test/money-fixtures';
import {
  createTestDatabase,
  dropDatabase,
  testAdminUrl,
  withAdmin,
  withDatabase,
} from '../test/test-database';
import { type Database, openDatabase } from './client';
import { appRoleName, DatabaseRoleError, scramVerifier } from './roles';
import { auditLog } from './schema';

/**
 * The server's own connection is a restricted role (docs/decisions/0021-restricted-database-role.md):
 * what a SQL injection could try against the audit log is refused by PostgreSQL itself, while the
 * triggers that write the log keep working. Runs on the embedded server and on DATABASE_URL alike.
 */

type Outcome = 'accepted' | { code: string; message: string };

/** Runs a statement on a database handle: 'accepted', or PostgreSQL's refusal. */
async function outcomeOf(db: Database['db'], statement: string): Promise<Outcome> {
  return db.execute(sql.raw(statement)).then(
    () => 'accepted' as const,
    (error: Error & { cause?: Error & { code?: string } }) => {
      const cause = (error.cause ?? error) as Error & { code?: string };
      return { code: cause.code ?? '', message: cause.message };
    },
  );
}

const ownerName = decodeURIComponent(new URL(testAdminUrl()).username);

describe("the server's database connection", () => {
  let server: TestServer;
  let creator: SignedUpUser;
  beforeAll(async () => {
    server = await startTestServer();
    creator = await signUp(server);
  });
  afterAll(() => server.close());

  it('signs in as the restricted role of its database, not as a superuser', async () => {
    const { rows } = (await server.db.execute(sql`
      select current_user as "user", current_database() as database, rolsuper as superuser
        from pg_roles where rolname = current_user`)) as unknown as {
      rows: Array<{ user: string; database: string; superuser: boolean }>;
    };
    expect(rows).toEqual([
      { user: appRoleName(rows[0]!.database), database: rows[0]!.database, superuser: false },
    ]);
    expect(server.database.login).toEqual({ user: rows[0]!.user, restricted: true });
  });

  it("plans with its role's settings: page reads priced as cached, not as disk seeks", async () => {
    const { rows } = (await server.db.execute(
      sql`select current_setting('random_page_cost') as "randomPageCost"`,
    )) as unknown as { rows: Array<{ randomPageCost: string }> };
    expect(rows).toEqual([{ randomPageCost: '1.1' }]);
  });

  it.each([
    ['update audit_log set action = $$nothing happened$$', 'permission denied for table audit_log'],
    ['delete from audit_log', 'permission denied for table audit_log'],
    ['truncate audit_log', 'permission denied for table audit_log'],
    ['alter table audit_log disable trigger audit_log_final_rows', 'must be owner of table audit_log'],
    ['alter table audit_log disable trigger all', 'must be owner of table audit_log'],
    ['alter table deals disable trigger audit_deals', 'must be owner of table deals'],
    [
      'set session_replication_role = replica',
      'permission denied to set parameter "session_replication_role"',
    ],
    ['drop table audit_log', 'must be owner of table audit_log'],
    ['drop table deals', 'must be owner of table deals'],
    ['truncate deals cascade', 'permission denied for table deals'],
    ['create table intruder (id int)', 'permission denied for schema public'],
    ['create table pgboss.intruder (id int)', 'permission denied for schema pgboss'],
    [
      'create function public.intruder() returns int language sql as $$select 1$$',
      'permission denied for schema public',
    ],
    [`set role ${pg.escapeIdentifier(ownerName)}`, `permission denied to set role "${ownerName}"`],
  ])('refuses `%s`', async (statement, message) => {
    expect(await outcomeOf(server.db, statement)).toEqual({ code: '42501', message });
  });

  it('still writes the audit log when the app changes a deal and moves money', async () => {
    const [counterpart, dealmaker] = [await signUp(server), await signUp(server)];
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker });
    await deposit(server, creator, 100);
    const paid = await server.post(`/api/wallet/escrow/${deal.id}/lock`, { token: creator.token });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const dealEntries = await server.db
      .select({ action: auditLog.action, actor: auditLog.actorUsername })
      .from(auditLog)
      .where(eq(auditLog.dealId, deal.id));
    expect(dealEntries).toEqual(
      expect.arrayContaining([
        { action: 'deals.insert', actor: creator.username },
        { action: 'escrows.update', actor: creator.username },
      ]),
    );
    const money = await server.db
      .select({ action: auditLog.action, actor: auditLog.actorUsername })
      .from(auditLog)
      .where(eq(auditLog.subject, `wallet:${creator.user.id}`));
    expect(money).toEqual(
      expect.arrayContaining([
        { action: 'money.deposit', actor: creator.username },
        { action: 'money.escrow_lock', actor: creator.username },
      ]),
    );
    // The lone half's deadline was scheduled in the payment's transaction, on the same connection.
    const { rows: jobs } = await server.database.executeSql(
      `select name from pgboss.job where name = 'escrow-half-expiry' and data->>'dealId' = $1`,
      [String(deal.id)],
    );
    expect(jobs).toEqual([{ name: 'escrow-half-expiry' }]);
  });
});

/** A database made for one test, dropped with every role named in `roles` (and its own `_app`) afterwards. */
async function scratchDatabase(options: { owner?: string } = {}) {
  const adminUrl = testAdminUrl();
  const name = `dealmaker_roles_${randomBytes(5).toString('hex')}`;
  const roles: string[] = [];
  await withAdmin(adminUrl, async (client) => {
    if (options.owner) {
      await client.query(`CREATE ROLE ${options.owner} LOGIN NOCREATEROLE NOCREATEDB`);
      roles.push(options.owner);
    }
    await client.query(`CREATE DATABASE ${name}${options.owner ? ` OWNER ${options.owner}` : ''}`);
  });
  const urlAs = (user?: string) => {
    const url = new URL(withDatabase(adminUrl, name));
    if (user) {
      url.username = user;
      url.password = 'unused-with-trust';
    }
    return url.toString();
  };
  return {
    name,
    urlAs,
    /** A login role made by hand, as an operator would in a managed database's console. */
    async makeLogin(role: string) {
      await withAdmin(adminUrl, (client) => client.query(`CREATE ROLE ${role} LOGIN`));
      roles.push(role);
    },
    async drop() {
      await dropDatabase(adminUrl, name);
      await withAdmin(adminUrl, async (client) => {
        for (const role of roles) await client.query(`DROP ROLE IF EXISTS ${role}`);
      });
    },
  };
}

async function roleExists(role: string): Promise<boolean> {
  return withAdmin(testAdminUrl(), async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    return rowCount === 1;
  });
}

describe('making the restricted role', () => {
  it('is done once when several instances open a fresh database together, and all sign in as it', async () => {
    const scratch = await scratchDatabase();
    try {
      const instances = await Promise.all(
        [0, 1, 2].map(() => openDatabase({ kind: 'postgres', url: scratch.urlAs(), poolSize: 2 })),
      );
      try {
        const role = appRoleName(scratch.name);
        for (const instance of instances) expect(instance.login).toEqual({ user: role, restricted: true });
        const [first] = instances;
        const { rows: kept } = await first!.executeSql(
          `select key from settings where key = 'app_role_login'`,
        );
        expect(kept).toHaveLength(1);
        const { rows: queues } = await first!.executeSql('select name from pgboss.queue order by name');
        expect(queues).toEqual([
          { name: 'dispute-escalation' },
          { name: 'escrow-half-expiry' },
          { name: 'milestone-auto-release' },
          { name: 'saved-search-mail' },
        ]);
        // A later start finds the role and keeps its password: the running instances' pools still sign in.
        const again = await openDatabase({ kind: 'postgres', url: scratch.urlAs(), poolSize: 1 });
        await again.close();
        const { rows } = await first!.executeSql('select current_user as "user"');
        expect(rows).toEqual([{ user: role }]);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    } finally {
      await scratch.drop();
    }
    expect(await roleExists(appRoleName(scratch.name))).toBe(false);
  }, 60_000);

  it('runs as the owner when DATABASE_URL may not create roles, or as a ready-made login (DATABASE_APP_URL)', async () => {
    const suffix = randomBytes(4).toString('hex');
    const owner = `dealmaker_roles_owner_${suffix}`;
    const login = `dealmaker_roles_login_${suffix}`;
    const scratch = await scratchDatabase({ owner });
    try {
      const asOwner = await openDatabase({ kind: 'postgres', url: scratch.urlAs(owner), poolSize: 1 });
      await asOwner.close();
      expect(asOwner.login).toEqual({ user: owner, restricted: false });
      expect(await roleExists(appRoleName(scratch.name))).toBe(false);

      await scratch.makeLogin(login);
      const readyMade = await openDatabase({
        kind: 'postgres',
        url: scratch.urlAs(owner),
        appUrl: scratch.urlAs(login),
        poolSize: 1,
      });
      try {
        expect(readyMade.login).toEqual({ user: login, restricted: true });
        expect(await outcomeOf(readyMade.db, 'select count(*) from audit_log')).toBe('accepted');
        expect(await outcomeOf(readyMade.db, `insert into settings (key, value) values ('probe', 'x')`)).toBe(
          'accepted',
        );
        expect(await outcomeOf(readyMade.db, 'delete from audit_log')).toEqual({
          code: '42501',
          message: 'permission denied for table audit_log',
        });
        expect(await outcomeOf(readyMade.db, 'alter table audit_log disable trigger all')).toEqual({
          code: '42501',
          message: 'must be owner of table audit_log',
        });
      } finally {
        await readyMade.close();
      }

      for (const [appUser, problem] of [
        [owner, 'is the owner or a member of it'],
        [ownerName, 'is a superuser'],
      ] as const) {
        const refused = await openDatabase({
          kind: 'postgres',
          url: scratch.urlAs(owner),
          appUrl: scratch.urlAs(appUser),
        }).then(
          (database) => database.close().then(() => 'accepted'),
          (error: Error) => error,
        );
        expect(refused).toBeInstanceOf(DatabaseRoleError);
        expect((refused as Error).message).toContain(
          `"${appUser}" cannot be the server's restricted login: it ${problem}`,
        );
      }
    } finally {
      await scratch.drop();
    }
  }, 60_000);

  it('is always done by the embedded database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-roles-'));
    try {
      const database = await openDatabase({ kind: 'embedded', dataDir });
      try {
        expect(database.login).toEqual({ user: 'postgres_app', restricted: true });
        expect(await outcomeOf(database.db, 'truncate audit_log')).toEqual({
          code: '42501',
          message: 'permission denied for table audit_log',
        });
      } finally {
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("goes with a test file's database", async () => {
    const database = await createTestDatabase();
    const role = database.login.user;
    expect(await roleExists(role)).toBe(true);
    await database.close();
    expect(await roleExists(role)).toBe(false);
  });

  it('sends the password as the SCRAM verifier PostgreSQL itself would store', async () => {
    const role = `dealmaker_roles_scram_${randomBytes(4).toString('hex')}`;
    await withAdmin(testAdminUrl(), async (client) => {
      await client.query(`SET password_encryption = 'scram-sha-256'`);
      await client.query(`CREATE ROLE ${role} PASSWORD 'correct horse battery'`);
      try {
        const { rows } = await client.query<{ stored: string }>(
          'SELECT rolpassword AS stored FROM pg_authid WHERE rolname = $1',
          [role],
        );
        const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(rows[0]!.stored)!;
        expect(scramVerifier('correct horse battery', Buffer.from(salt!, 'base64'), Number(iterations))).toBe(
          rows[0]!.stored,
        );
      } finally {
        await client.query(`DROP ROLE ${role}`);
      }
    });
  });

  it('names a role per database, within the 63 bytes PostgreSQL keeps', () => {
    expect(appRoleName('dealmaker')).toBe('dealmaker_app');
    const long = 'd'.repeat(63);
    const cut = appRoleName(long);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(63);
    expect(cut).toMatch(/^d+_[0-9a-f]{8}_app$/);
    expect(appRoleName(`${'d'.repeat(62)}e`)).not.toBe(cut);
    expect(Buffer.byteLength(appRoleName('é'.repeat(31)))).toBeLessThanOrEqual(63);
  });
});

describe('DATABASE_APP_URL', () => {
  const owner = 'postgres://owner:secret@db.example:5432/dealmaker';
  it('is a login other than DATABASE_URL, beside it', () => {
    expect(
      loadConfig({ DATABASE_URL: owner, DATABASE_APP_URL: 'postgres://app:pw@db.example:5432/dealmaker' })
        .databaseAppUrl,
    ).toBe('postgres://app:pw@db.example:5432/dealmaker');
    for (const [env, message] of [
      [{ DATABASE_APP_URL: 'postgres://app:pw@db/dealmaker' }, 'is used only with DATABASE_URL'],
      [
        { DATABASE_URL: owner, DATABASE_APP_URL: 'postgres://db.example/dealmaker' },
        'must name the login role',
      ],
      [
        { DATABASE_URL: owner, DATABASE_APP_URL: 'postgres://owner:x@db.example/dealmaker' },
        'must name another role',
      ],
      [{ DATABASE_URL: owner, DATABASE_APP_URL: 'mysql://app@db/dealmaker' }, 'must be a PostgreSQL URL'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`DATABASE_APP_URL: ${message}`));
    }
  });
});
