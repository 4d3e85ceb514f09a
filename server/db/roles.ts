import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The server's queries run as a login role that owns nothing, not as the database's owner
 * (docs/decisions/0021-restricted-database-role.md): the owner migrates, installs the job queue and
 * makes that role; the role may read and write the product's rows, and on the audit log only read and
 * add. So a SQL injection cannot change the audit log, alter or drop a table or disable a trigger (only
 * an owner can), nor set session_replication_role (only a superuser can).
 */

/** Who a database's queries run as. */
export type DatabaseLogin = {
  /** The role (`current_user`) of the connections. */
  user: string;
  /** False: the owner itself, because no restricted role could be made nor was given. */
  restricted: boolean;
};

/** A login and the connection string that signs in as it. */
export type AppLogin = DatabaseLogin & { url: string };

/** A restricted role that cannot be made or used safely: the server does not start. */
export class DatabaseRoleError extends Error {}

/** The schemas whose tables the server reads and writes: ours, and the job queue's. */
const productSchemas = ['public', 'pgboss'];

/** Where the generated login of a database is kept, so that every instance of that database finds it. */
const settingKey = 'app_role_login';

/** The longest name PostgreSQL keeps (NAMEDATALEN - 1 bytes); a longer one would be cut silently. */
const maxNameBytes = 63;

/**
 * The restricted role of a database. Roles belong to the whole cluster, not to one database, so each
 * database gets its own (`<database>_app`): databases sharing a cluster (the test suite's copies of
 * one template) never fight over one role's password or privileges. A database name too long for
 * the suffix is cut and completed with a hash of the whole name, so two long names stay apart.
 */
export function appRoleName(database: string): string {
  const simple = `${database}_app`;
  if (Buffer.byteLength(simple) <= maxNameBytes) return simple;
  const suffix = `_${createHash('sha256').update(database).digest('hex').slice(0, 8)}_app`;
  let cut = '';
  for (const character of database) {
    if (Buffer.byteLength(cut + character + suffix) > maxNameBytes) break;
    cut += character;
  }
  return cut + suffix;
}

/** The comment put on every role made here: says whose it is, and lets a test run find the ones it left. */
export const roleComment = (database: string) => `Dealmaker: restricted login of database ${database}`;

/**
 * Gives the server its login, on a connection of the database's owner, right after the migrations and
 * under their advisory lock (so instances starting together take turns, and the first one makes the
 * role and its password for all of them):
 *
 * - `readyMadeUrl` (DATABASE_APP_URL): a login role someone else made, for an owner that may not make
 *   roles (a managed database). It gets its privileges here.
 * - else, an owner that may make roles makes (or re-syncs) `<database>_app`, its password generated
 *   once and kept in the `settings` table, where every instance of this database reads it.
 * - else, the owner itself, `restricted: false`: the caller warns.
 *
 * Privileges are granted again on every start, so tables that a migration added are covered.
 */
export async function provideAppLogin(
  owner: pg.ClientBase,
  ownerUrl: string,
  readyMadeUrl?: string,
): Promise<AppLogin> {
  const me = await ownerFacts(owner);
  if (readyMadeUrl) {
    const user = decodeURIComponent(new URL(readyMadeUrl).username);
    await inTransaction(owner, async () => {
      await grantPrivileges(owner, user, me.database);
      await assertRestricted(owner, user);
    });
    return { url: readyMadeUrl, user, restricted: true };
  }
  if (!me.mayCreateRoles) return { url: ownerUrl, user: me.user, restricted: false };

  const role = appRoleName(me.database);
  const password = await inTransaction(owner, async () => {
    const password = await storedPassword(owner, role);
    await createOrUpdateRole(owner, role, password, me.database);
    await grantPrivileges(owner, role, me.database);
    await assertRestricted(owner, role);
    return password;
  });
  const url = new URL(ownerUrl);
  url.username = encodeURIComponent(role);
  url.password = password;
  return { url: url.toString(), user: role, restricted: true };
}

async function ownerFacts(owner: pg.ClientBase) {
  const { rows } = await owner.query<{ user: string; database: string; mayCreateRoles: boolean }>(
    `SELECT current_user AS "user", current_database() AS "database",
            (rolsuper OR rolcreaterole) AS "mayCreateRoles"
       FROM pg_roles WHERE rolname = current_user`,
  );
  return rows[0]!;
}

async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The password kept for this database's role, or a new one kept now. A copy of the database (made
 * from it as a template, restored under another name) has another role: it gets its own password.
 */
async function storedPassword(owner: pg.ClientBase, role: string): Promise<string> {
  const { rows } = await owner.query<{ value: string }>(
    'SELECT value FROM settings WHERE key = $1 FOR UPDATE',
    [settingKey],
  );
  const stored = rows[0] ? (JSON.parse(rows[0].value) as { role?: string; password?: string }) : undefined;
  if (stored?.role === role && stored.password) return stored.password;
  const password = randomBytes(24).toString('hex');
  await owner.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [settingKey, JSON.stringify({ role, password })],
  );
  return password;
}

/**
 * Creates the role, or sets its password again when it exists (left by a dropped database of the same
 * name, or made before the password was kept). The password goes to PostgreSQL already hashed, so it
 * never appears in the server's statement log.
 */
async function createOrUpdateRole(owner: pg.ClientBase, role: string, password: string, database: string) {
  const name = pg.escapeIdentifier(role);
  const verifier = pg.escapeLiteral(scramVerifier(password));
  const { rowCount } = await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (rowCount) {
    await owner.query(`ALTER ROLE ${name} WITH LOGIN PASSWORD ${verifier}`);
  } else {
    // NOINHERIT: should anyone ever grant it another role, it still gets none of that role's rights.
    await owner.query(
      `CREATE ROLE ${name} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD ${verifier}`,
    );
    await owner.query(`COMMENT ON ROLE ${name} IS ${pg.escapeLiteral(roleComment(database))}`);
  }
  for (const [setting, value] of Object.entries(sessionSettings))
    await owner.query(`ALTER ROLE ${name} SET ${setting} = ${pg.escapeLiteral(value)}`);
}

/**
 * Planner settings of the server's sessions, set on its role (so they hold through a connection pooler).
 * random_page_cost: PostgreSQL's default (4) prices a page read as a disk seek; the deals the lists read
 * are in memory, and at that price the planner walked 40,000 deals in creation order rather than fetch
 * the 2,500 a word index found (docs/decisions/0029-deal-search-and-filters.md).
 */
export const sessionSettings = { random_page_cost: '1.1' } as const;

/**
 * Exactly these rights, whatever it had before: rows of every table of the product and the job queue
 * (read, add, change, delete), its sequences (next value), and on `audit_log` read and add only. No
 * TRUNCATE, TRIGGER or REFERENCES, and no CREATE in the schemas, so no table of its own either.
 * Revoked and granted in one transaction: running instances never see it without its rights.
 */
async function grantPrivileges(owner: pg.ClientBase, role: string, database: string) {
  const name = pg.escapeIdentifier(role);
  const schemas = productSchemas.map((schema) => pg.escapeIdentifier(schema)).join(', ');
  const db = pg.escapeIdentifier(database);
  const { rows } = await owner.query<{ connects: boolean; createsInPublic: boolean }>(
    `SELECT has_database_privilege($1, current_database(), 'CONNECT') AS connects,
            has_schema_privilege($1, 'public', 'CREATE') AS "createsInPublic"`,
    [role],
  );
  if (!rows[0]!.connects) await owner.query(`GRANT CONNECT ON DATABASE ${db} TO ${name}`);
  // PostgreSQL 15 and later give PUBLIC no CREATE on `public`; a database begun on an older one still does.
  if (rows[0]!.createsInPublic) await owner.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  await owner.query(`REVOKE CREATE ON DATABASE ${db} FROM ${name}`);
  await owner.query(`REVOKE CREATE ON SCHEMA ${schemas} FROM ${name}`);
  await owner.query(`GRANT USAGE ON SCHEMA ${schemas} TO ${name}`);
  await owner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schemas} FROM ${name}`);
  await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schemas} TO ${name}`);
  await owner.query(`REVOKE UPDATE, DELETE ON TABLE public.audit_log FROM ${name}`);
  await owner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schemas} FROM ${name}`);
  await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schemas} TO ${name}`);
  // Reading which migrations ran is how /api/ready tells that the schema is the one this code needs.
  await owner.query(`GRANT USAGE ON SCHEMA drizzle TO ${name}`);
  await owner.query(`GRANT SELECT ON TABLE drizzle.__drizzle_migrations TO ${name}`);
}

/**
 * Refuses a role that could undo what it is for: a superuser, one that may make roles or databases,
 * replicate or bypass row security, one that is (or can become) the owner, or one that owns anything
 * here — e.g. a DATABASE_APP_URL naming the owner, or a role of that name someone else made.
 */
async function assertRestricted(owner: pg.ClientBase, role: string) {
  const { rows } = await owner.query<{ problems: string[] | null }>(
    `SELECT array_remove(ARRAY[
              CASE WHEN r.rolsuper THEN 'is a superuser' END,
              CASE WHEN r.rolcreaterole THEN 'may create roles' END,
              CASE WHEN r.rolcreatedb THEN 'may create databases' END,
              CASE WHEN r.rolreplication THEN 'may replicate' END,
              CASE WHEN r.rolbypassrls THEN 'bypasses row security' END,
              CASE WHEN pg_has_role(r.oid, (SELECT oid FROM pg_roles WHERE rolname = current_user), 'MEMBER')
                   THEN 'is the owner or a member of it' END,
              CASE WHEN EXISTS (SELECT 1 FROM pg_class WHERE relowner = r.oid)
                     OR EXISTS (SELECT 1 FROM pg_namespace WHERE nspowner = r.oid)
                     OR EXISTS (SELECT 1 FROM pg_proc WHERE proowner = r.oid)
                   THEN 'owns objects of this database' END
            ], NULL) AS problems
       FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  );
  if (!rows[0]) throw new DatabaseRoleError(`The database role "${role}" does not exist.`);
  const problems = rows[0].problems ?? [];
  if (problems.length > 0) {
    throw new DatabaseRoleError(
      `The database role "${role}" cannot be the server's restricted login: it ${problems.join(', ')}. ` +
        'Give the server a login role without privileges of its own (DATABASE_APP_URL), or drop that role.',
    );
  }
}

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for a password (RFC 5802/7677, as PostgreSQL writes it):
 * given in CREATE/ALTER ROLE, it is stored as is and the password itself is never sent.
 * `password` must be ASCII (SASLprep leaves it unchanged): ours are hex.
 */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  const base64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${iterations}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`;
}
