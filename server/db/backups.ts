import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Config } from '../config';
import { migrationsFolder } from '../paths';
import { type Database, migrationLockKey } from './client';
import { clusterFolder, runningClusterUrl, startEmbeddedPostgres } from './embedded-postgres';
import { installJobQueue } from './job-queue';

/**
 * Backups of the marketplace (docs/decisions/0025-backups.md): a logical dump taken in one consistent
 * snapshot, restored into an empty database by running the migrations to the schema the backup was
 * taken at and loading every row back in one transaction.
 *
 * A backup is a gzip file (`*.backup.gz`) of lines:
 *
 *     DEALMAKER BACKUP 1
 *     {header: when, the migrations the schema is at, pg-boss's schema version, each table and its columns}
 *     TABLE public.users
 *     …the table's rows as COPY text (one line per row: tabs, \N for NULL, backslash escapes)…
 *     \.
 *     TABLE …
 *     END {trailer: each table's row count and SHA-256, each sequence's value}
 *
 * beside a `*.backup.gz.sha256` file (`sha256sum -c` reads it) that the restore checks first.
 */

const magic = 'DEALMAKER BACKUP 1';
/** The schemas whose tables a backup holds: the product's and the job queue's (its pending deadlines). */
const backedUpSchemas = ['public', 'pgboss'];
/** Made again by the restore rather than copied: the job queue's schema version (checked to be the same). */
const notCopied = new Set(['pgboss.version']);
export const backupSuffix = '.backup.gz';
export const checksumSuffix = '.sha256';

/** What the process exits with: 1 an error, 2 wrong usage, 3 a target refused, 4 a backup file refused. */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 3 | 4 = 1,
  ) {
    super(message);
  }
}

type TableHeader = { name: string; schema: string; table: string; columns: string[]; partitioned: boolean };
export type BackupHeader = {
  format: 1;
  createdAt: string;
  database: string;
  postgres: string;
  /** The migration the schema is at (its tag), and every migration applied, as Drizzle records them. */
  migration: string;
  migrations: Array<{ hash: string; createdAt: number }>;
  /** pg-boss's schema version (`pgboss.version`). */
  jobQueueVersion: number | null;
  /** In the order they are written and loaded: a table comes after those its foreign keys point at. */
  tables: TableHeader[];
};
export type BackupTrailer = {
  tables: Array<{ name: string; rows: number; bytes: number; sha256: string }>;
  sequences: Array<{ name: string; value: string; called: boolean }>;
};

export type BackupResult = {
  file: string;
  checksumFile: string;
  sha256: string;
  bytes: number;
  ms: number;
  migration: string;
  rows: number;
  tables: Array<{ name: string; rows: number }>;
};

export type RestoreResult = {
  ms: number;
  migration: string;
  rows: number;
  tables: Array<{ name: string; rows: number }>;
};

// ——— Taking a backup ———

/**
 * Writes a backup of the database `ownerUrl` names (its owner or a superuser: every table is read) to
 * `file`, and its checksum beside it. Everything is read in one REPEATABLE READ, READ ONLY transaction:
 * one snapshot, so a transfer and the wallet rows it moved are both in or both out, while the server
 * keeps serving. Written to `<file>.partial` and renamed when complete.
 */
export async function writeBackup(
  ownerUrl: string,
  file: string,
  options: { signal?: AbortSignal } = {},
): Promise<BackupResult> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: ownerUrl });
  client.on('error', () => {});
  await client.connect();
  // Stopping (the server shutting down): the connection is closed, the COPY fails, the partial file goes.
  const abort = () => void client.end().catch(() => undefined);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  const hash = createHash('sha256');
  let bytes = 0;
  const gzip = createGzip();
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  const written = pipeline(gzip, fs.createWriteStream(partial, { flags: 'w', mode: 0o600 }));
  // Awaited below; a write error meanwhile must not count as unhandled.
  written.catch(() => undefined);
  const write = async (data: string | Buffer) => {
    if (!gzip.write(data)) await once(gzip, 'drain');
  };
  let header: BackupHeader;
  const trailer: BackupTrailer = { tables: [], sequences: [] };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    header = await readHeader(client);
    await write(`${magic}\n${JSON.stringify(header)}\n`);
    for (const table of header.tables) {
      await write(`TABLE ${table.name}\n`);
      const tableHash = createHash('sha256');
      let tableBytes = 0;
      const columns = table.columns.map((column) => pg.escapeIdentifier(column)).join(', ');
      const source = quoted(table);
      const stream = client.query(
        copyTo(
          table.partitioned
            ? `COPY (SELECT ${columns} FROM ${source}) TO STDOUT`
            : `COPY ${source} (${columns}) TO STDOUT`,
        ),
      );
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        tableHash.update(chunk);
        tableBytes += chunk.length;
        await write(chunk);
      }
      await write('\\.\n');
      trailer.tables.push({
        name: table.name,
        rows: stream.rowCount,
        bytes: tableBytes,
        sha256: tableHash.digest('hex'),
      });
    }
    trailer.sequences = await readSequences(client);
    await write(`END ${JSON.stringify(trailer)}\n`);
    await client.query('COMMIT');
    gzip.end();
    await written;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => undefined);
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await client.end().catch(() => undefined);
  }
  fs.renameSync(partial, file);
  const sha256 = hash.digest('hex');
  const checksumFile = `${file}${checksumSuffix}`;
  fs.writeFileSync(`${checksumFile}.partial`, `${sha256}  ${path.basename(file)}\n`, { mode: 0o600 });
  fs.renameSync(`${checksumFile}.partial`, checksumFile);
  const tables = trailer.tables.map(({ name, rows }) => ({ name, rows }));
  return {
    file,
    checksumFile,
    sha256,
    bytes,
    ms: Math.round(performance.now() - started),
    migration: header.migration,
    rows: tables.reduce((sum, table) => sum + table.rows, 0),
    tables,
  };
}

async function readHeader(client: pg.Client): Promise<BackupHeader> {
  const { rows: facts } = await client.query<{ database: string; postgres: string; migrated: boolean }>(
    `SELECT current_database() AS database, current_setting('server_version') AS postgres,
            to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS migrated`,
  );
  const { database, postgres, migrated } = facts[0]!;
  if (!migrated) {
    throw new BackupError(`The database "${database}" has no Dealmaker schema: there is nothing to back up.`);
  }
  const { rows: applied } = await client.query<{ hash: string; createdAt: string }>(
    'SELECT hash, created_at::text AS "createdAt" FROM drizzle.__drizzle_migrations ORDER BY created_at',
  );
  const migrations = applied.map((row) => ({ hash: row.hash, createdAt: Number(row.createdAt) }));
  const { rows: queue } = await client.query<{ version: number | null }>(
    `SELECT CASE WHEN to_regclass('pgboss.version') IS NULL THEN NULL
                 ELSE (SELECT max(version)::int FROM pgboss.version) END AS version`,
  );
  const tables = await listTables(client);
  return {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    postgres,
    migration: migrationTag(migrations.at(-1)?.createdAt),
    migrations,
    jobQueueVersion: queue[0]!.version,
    tables: tables.filter((table) => !notCopied.has(table.name)),
  };
}

/** The tables of the backed-up schemas (partitions through their parent), each after those it refers to. */
async function listTables(client: pg.ClientBase): Promise<TableHeader[]> {
  const { rows } = await client.query<{
    schema: string;
    table: string;
    columns: string[];
    partitioned: boolean;
  }>(
    `SELECT n.nspname AS schema, c.relname AS table, c.relkind = 'p' AS partitioned,
            array(SELECT a.attname::text FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                   ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY n.nspname, c.relname`,
    [backedUpSchemas],
  );
  const { rows: references } = await client.query<{ from: string; to: string }>(
    `SELECT DISTINCT fn.nspname || '.' || f.relname AS "from", tn.nspname || '.' || t.relname AS "to"
       FROM pg_constraint k
       JOIN pg_class f ON f.oid = coalesce(pg_partition_root(k.conrelid), k.conrelid)
       JOIN pg_namespace fn ON fn.oid = f.relnamespace
       JOIN pg_class t ON t.oid = coalesce(pg_partition_root(k.confrelid), k.confrelid)
       JOIN pg_namespace tn ON tn.oid = t.relnamespace
      WHERE k.contype = 'f' AND fn.nspname = ANY($1)`,
    [backedUpSchemas],
  );
  const tables = rows.map((row) => ({ ...row, name: `${row.schema}.${row.table}` }));
  return inDependencyOrder(tables, references);
}

/** Kahn's sort: a table comes after the tables its foreign keys point at (a table may point at itself). */
function inDependencyOrder<T extends { name: string }>(
  tables: T[],
  references: Array<{ from: string; to: string }>,
) {
  const names = new Set(tables.map((table) => table.name));
  const needs = new Map(tables.map((table) => [table.name, new Set<string>()]));
  for (const { from, to } of references) {
    if (from !== to && names.has(from) && names.has(to)) needs.get(from)!.add(to);
  }
  const ordered: T[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) => !placed.has(table.name) && [...needs.get(table.name)!].every((name) => placed.has(name)),
    );
    if (ready.length === 0) {
      const left = tables.filter((table) => !placed.has(table.name)).map((table) => table.name);
      throw new BackupError(`The foreign keys of these tables form a cycle: ${left.join(', ')}.`);
    }
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

async function readSequences(client: pg.ClientBase): Promise<BackupTrailer['sequences']> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind = 'S' ORDER BY 1, 2`,
    [backedUpSchemas],
  );
  const sequences: BackupTrailer['sequences'] = [];
  for (const { schema, name } of rows) {
    const { rows: state } = await client.query<{ value: string; called: boolean }>(
      `SELECT last_value::text AS value, is_called AS called FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`,
    );
    sequences.push({ name: `${schema}.${name}`, ...state[0]! });
  }
  return sequences;
}

const quoted = (table: { schema: string; table: string }) =>
  `${pg.escapeIdentifier(table.schema)}.${pg.escapeIdentifier(table.table)}`;

const quotedName = (name: string) => {
  const dot = name.indexOf('.');
  return quoted({ schema: name.slice(0, dot), table: name.slice(dot + 1) });
};

/** The tag of a migration (e.g. `0008_accounts_security_privacy`) from the journal, by its timestamp. */
function migrationTag(createdAt: number | undefined): string {
  if (createdAt === undefined) return 'none';
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: Array<{ when: number; tag: string }>;
  };
  return journal.entries.find((entry) => entry.when === createdAt)?.tag ?? `unknown (${createdAt})`;
}

// ——— Reading and checking a backup file ———

/**
 * Checks a backup file against the SHA-256 of its `.sha256` file and reads its header: nothing is
 * restored from a file that is not, byte for byte, the one written.
 */
export async function checkBackupFile(file: string): Promise<{ header: BackupHeader; sha256: string }> {
  if (!fs.existsSync(file)) throw new BackupError(`There is no backup file ${file}.`, 4);
  const checksumFile = `${file}${checksumSuffix}`;
  if (!fs.existsSync(checksumFile)) {
    throw new BackupError(
      `The checksum file ${checksumFile} is missing: a backup is only restored once its SHA-256 is checked.`,
      4,
    );
  }
  const expected = fs.readFileSync(checksumFile, 'utf8').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (!/^[0-9a-f]{64}$/.test(expected)) throw new BackupError(`${checksumFile} holds no SHA-256.`, 4);
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  if (sha256 !== expected) {
    throw new BackupError(
      `The backup ${file} is damaged: its SHA-256 is ${sha256}, its checksum file says ${expected}. Nothing was restored.`,
      4,
    );
  }
  const lines = backupLines(readBackup(file));
  try {
    const first = await lines.next();
    const second = await lines.next();
    if (first.done || first.value.toString() !== magic || second.done) throw new Error('no header');
    const header = JSON.parse(second.value.toString()) as BackupHeader;
    if (header.format !== 1 || !Array.isArray(header.tables) || !Array.isArray(header.migrations)) {
      throw new Error('unknown header');
    }
    return { header, sha256 };
  } catch (error) {
    throw new BackupError(`${file} is not a Dealmaker backup (${(error as Error).message}).`, 4);
  } finally {
    await lines.return(undefined);
  }
}

/** A backup's decompressed bytes; the file is closed with the stream, however early it is left. */
function readBackup(file: string): Readable {
  const source = fs.createReadStream(file);
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  gunzip.on('close', () => source.destroy());
  return source.pipe(gunzip);
}

/** The lines of a stream, without their newline; a line may span many chunks (an image's bytes). */
async function* backupLines(stream: Readable): AsyncGenerator<Buffer, void, undefined> {
  let pieces: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, end);
        if (pieces.length > 0) {
          pieces.push(part);
          yield Buffer.concat(pieces);
          pieces = [];
        } else {
          yield part;
        }
        start = end + 1;
      }
      if (start < chunk.length) pieces.push(chunk.subarray(start));
    }
    if (pieces.length > 0) throw new BackupError('The backup ends in the middle of a line.', 4);
  } finally {
    stream.destroy();
  }
}

// ——— Restoring ———

/** True when the database has none of Dealmaker's schemas or tables: a restore may go there. */
async function isEmpty(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ objects: number }>(
    `SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname IN ('public', 'pgboss', 'drizzle') AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f'))
          + (SELECT count(*) FROM pg_namespace WHERE nspname IN ('pgboss', 'drizzle')) AS objects`,
  );
  return Number(rows[0]!.objects) === 0;
}

/**
 * Empties a database of everything Dealmaker keeps in it: the job queue's and the migrations' schemas,
 * and `public` with all it holds (made again as PostgreSQL makes it). The owner may do it; one transaction.
 */
async function clearDatabase(client: pg.ClientBase) {
  const { rows } = await client.query<{ version: number }>(
    "SELECT current_setting('server_version_num')::int AS version",
  );
  await client.query('BEGIN');
  try {
    await client.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
    await client.query('DROP SCHEMA IF EXISTS drizzle CASCADE');
    await client.query('DROP SCHEMA IF EXISTS public CASCADE');
    // PostgreSQL 15 and later: `public` belongs to the database's owner (pg_database_owner), all may use it.
    await client.query(
      rows[0]!.version >= 150_000
        ? 'CREATE SCHEMA public AUTHORIZATION pg_database_owner'
        : 'CREATE SCHEMA public',
    );
    await client.query('GRANT USAGE ON SCHEMA public TO PUBLIC');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The code's migrations up to the backup's: the backup's must be the first ones of this version's. */
function migrationsFor(header: BackupHeader) {
  const known = readMigrationFiles({ migrationsFolder });
  const unknown = header.migrations.findIndex(
    (migration, index) => known[index]?.folderMillis !== migration.createdAt,
  );
  if (unknown !== -1 || header.migrations.length === 0) {
    throw new BackupError(
      `This backup's schema is at migration ${header.migration}, which this version of Dealmaker does not have: ` +
        'restore it with the version of Dealmaker that made it, or a newer one.',
      4,
    );
  }
  return known.slice(0, header.migrations.length);
}

/**
 * Restores a backup into the (empty) database `ownerUrl` names, as its owner: checks the file, refuses a
 * database that is not empty unless `force` (which empties it first), brings the schema to the backup's
 * migration, installs the job queue, then loads every row, the sequences' values and checks each table's
 * count and checksum in one transaction. Should anything fail after the target was touched, it is emptied
 * again. The restricted role is not part of a database: the server's next start makes (or updates) it,
 * with the password the restored `settings` keep (server/db/roles.ts).
 */
export async function restoreBackup(
  file: string,
  ownerUrl: string,
  options: { force?: boolean; checked?: BackupHeader } = {},
): Promise<RestoreResult> {
  const started = performance.now();
  const header = options.checked ?? (await checkBackupFile(file)).header;
  const migrations = migrationsFor(header);
  const client = new pg.Client({ connectionString: ownerUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    // A server starting on this database meanwhile waits (it takes this lock to migrate).
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    if (!(await isEmpty(client))) {
      if (!options.force) {
        throw new BackupError(
          'The target database is not empty: a backup is only restored into an empty one. ' +
            'Use an empty database (or data folder), or pass --force to replace everything in it.',
          3,
        );
      }
      await clearDatabase(client);
    }
    try {
      await migrateTo(client, migrations);
      await installJobQueue((text, values) => client.query(text, values));
      const { rows } = await client.query<{ version: number }>(
        'SELECT max(version)::int AS version FROM pgboss.version',
      );
      if (header.jobQueueVersion !== null && rows[0]!.version !== header.jobQueueVersion) {
        throw new BackupError(
          `This backup's job queue schema is version ${header.jobQueueVersion}, this version of Dealmaker's is ${rows[0]!.version}: ` +
            'restore it with the version of Dealmaker that made it.',
          4,
        );
      }
      const tables = await loadRows(client, file, header);
      await client.query('ANALYZE');
      return {
        ms: Math.round(performance.now() - started),
        migration: header.migration,
        rows: tables.reduce((sum, table) => sum + table.rows, 0),
        tables,
      };
    } catch (error) {
      await clearDatabase(client).catch(() => undefined);
      throw error;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drizzle's migrations up to the backup's, recorded as Drizzle records them, in one transaction. */
async function migrateTo(client: pg.ClientBase, migrations: ReturnType<typeof readMigrationFiles>) {
  await client.query('BEGIN');
  try {
    await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
    await client.query(
      'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    for (const migration of migrations) {
      for (const statement of migration.sql) await client.query(statement);
      await client.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Every row back, in one transaction: the tables' own triggers are off meanwhile (the audit triggers
 * would log each row again, the append-only ones refuse the TRUNCATE of what the migrations put there),
 * foreign keys are checked as ever (the backup lists tables in dependency order). Each table's row count
 * and SHA-256 must be the backup's before it commits.
 */
async function loadRows(client: pg.ClientBase, file: string, header: BackupHeader) {
  const expected = new Map(header.tables.map((table) => [table.name, table]));
  await client.query('BEGIN');
  try {
    const present = new Set((await listTables(client)).map((table) => table.name));
    const missing = header.tables.filter((table) => !present.has(table.name)).map((table) => table.name);
    if (missing.length > 0) {
      throw new BackupError(`The restored schema lacks the backup's tables ${missing.join(', ')}.`, 4);
    }
    const { rows: triggers } = await client.query<{
      schema: string;
      table: string;
      name: string;
      enabled: string;
    }>(
      `SELECT n.nspname AS schema, c.relname AS table, t.tgname AS name, t.tgenabled AS enabled
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND n.nspname = ANY($1)`,
      [backedUpSchemas],
    );
    for (const trigger of triggers) {
      await client.query(
        `ALTER TABLE ${quoted(trigger)} DISABLE TRIGGER ${pg.escapeIdentifier(trigger.name)}`,
      );
    }
    await client.query(`TRUNCATE ${header.tables.map(quoted).join(', ')}`);

    const loaded: BackupTrailer['tables'] = [];
    let trailer: BackupTrailer | undefined;
    const lines = backupLines(readBackup(file));
    await lines.next();
    await lines.next();
    for (let line = await lines.next(); !line.done; line = await lines.next()) {
      const text = line.value.subarray(0, 6).toString();
      if (text.startsWith('END ')) {
        trailer = JSON.parse(line.value.subarray(4).toString()) as BackupTrailer;
        if (!(await lines.next()).done) throw new BackupError('The backup goes on after its end.', 4);
        break;
      }
      if (!text.startsWith('TABLE ')) throw new BackupError('The backup is not in the expected format.', 4);
      const name = line.value.subarray(6).toString();
      const table = expected.get(name);
      if (!table) throw new BackupError(`The backup holds a table its header does not name: ${name}.`, 4);
      loaded.push({ name, ...(await copyTable(client, table, lines)) });
    }
    if (!trailer) throw new BackupError('The backup is cut short: it has no end.', 4);
    const problems = compare(header, loaded, trailer);
    if (problems.length > 0) {
      throw new BackupError(`The backup does not match its own manifest: ${problems.join('; ')}.`, 4);
    }
    const { rows: sequences } = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ANY($1) AND c.relkind = 'S'`,
      [backedUpSchemas],
    );
    const existing = new Set(sequences.map((sequence) => sequence.name));
    for (const sequence of trailer.sequences) {
      if (!existing.has(sequence.name)) continue;
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        quotedName(sequence.name),
        sequence.value,
        sequence.called,
      ]);
    }
    for (const trigger of triggers) {
      const how =
        trigger.enabled === 'A' ? 'ENABLE ALWAYS' : trigger.enabled === 'R' ? 'ENABLE REPLICA' : 'ENABLE';
      await client.query(
        `ALTER TABLE ${quoted(trigger)} ${how} TRIGGER ${pg.escapeIdentifier(trigger.name)}`,
      );
    }
    await client.query('COMMIT');
    return loaded.map(({ name, rows }) => ({ name, rows }));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** One table's rows (up to the `\.` line) into COPY FROM STDIN; their count, size and SHA-256. */
async function copyTable(
  client: pg.ClientBase,
  table: TableHeader,
  lines: AsyncGenerator<Buffer, void, undefined>,
): Promise<{ rows: number; bytes: number; sha256: string }> {
  const columns = table.columns.map((column) => pg.escapeIdentifier(column)).join(', ');
  const sink = client.query(copyFrom(`COPY ${quoted(table)} (${columns}) FROM STDIN`));
  const failed = new Promise<never>((_, reject) => sink.once('error', reject));
  failed.catch(() => undefined);
  const hash = createHash('sha256');
  const newline = Buffer.from('\n');
  let bytes = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const data = Buffer.concat(batch);
    batch = [];
    batchBytes = 0;
    if (!sink.write(data)) await Promise.race([once(sink, 'drain'), failed]);
  };
  for (;;) {
    const line = await lines.next();
    if (line.done) throw new BackupError(`The backup is cut short in table ${table.name}.`, 4);
    if (line.value.length === 2 && line.value[0] === 0x5c && line.value[1] === 0x2e) break; // "\."
    hash.update(line.value);
    hash.update(newline);
    bytes += line.value.length + 1;
    batch.push(line.value, newline);
    batchBytes += line.value.length + 1;
    if (batchBytes >= 256 * 1024) await flush();
  }
  await flush();
  sink.end();
  await Promise.race([once(sink, 'finish'), failed]);
  return { rows: sink.rowCount, bytes, sha256: hash.digest('hex') };
}

function compare(header: BackupHeader, loaded: BackupTrailer['tables'], trailer: BackupTrailer): string[] {
  const problems: string[] = [];
  const byName = new Map(loaded.map((table) => [table.name, table]));
  for (const table of header.tables) {
    const got = byName.get(table.name);
    const want = trailer.tables.find((entry) => entry.name === table.name);
    if (!got || !want) problems.push(`table ${table.name} is missing`);
    else if (got.rows !== want.rows) problems.push(`${table.name} has ${got.rows} rows, not ${want.rows}`);
    else if (got.sha256 !== want.sha256) problems.push(`${table.name}'s rows are not the ones backed up`);
  }
  return problems;
}

// ——— The embedded database ———

/**
 * Backs up the embedded database of DATA_DIR: through the running server's socket when a Dealmaker
 * server runs on that folder (its lock is held and its PostgreSQL is up), else by starting the cluster
 * for the time of the backup (taking the folder's lock, so a server started meanwhile is refused).
 */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupResult> {
  if (!fs.existsSync(path.join(clusterFolder(path.resolve(dataDir)), 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${dataDir}: nothing to back up.`);
  }
  const running = runningClusterUrl(dataDir);
  if (running) return writeBackup(running, file);
  const server = await startEmbeddedPostgres(dataDir);
  try {
    return await writeBackup(server.url, file);
  } finally {
    await server.stop();
  }
}

/**
 * Restores a backup into the embedded database of DATA_DIR, which no server may be running on (its lock
 * is taken). A folder without a database gets a new one; a failed restore into it leaves none again.
 */
export async function restoreIntoDataDir(
  dataDir: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  const { header } = await checkBackupFile(file);
  const cluster = clusterFolder(path.resolve(dataDir));
  const existed = fs.existsSync(path.join(cluster, 'PG_VERSION'));
  const server = await startEmbeddedPostgres(dataDir);
  let restored = false;
  try {
    const result = await restoreBackup(file, server.url, { ...options, checked: header });
    restored = true;
    return result;
  } finally {
    await server.stop();
    if (!restored && !existed) fs.rmSync(cluster, { recursive: true, force: true });
  }
}

// ——— Daily backups ———

const dayMs = 24 * 3_600_000;
const backupName = /^dealmaker-(daily-)?(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)\.backup\.gz$/;

/** `dealmaker-2026-11-27T11-30-05-123Z.backup.gz`, or `dealmaker-daily-…` for the daily ones. */
export function backupFileName(at: Date, kind: 'daily' | 'manual' = 'manual'): string {
  const stamp = at.toISOString().replace(/:/g, '-').replace('.', '-');
  return `dealmaker-${kind === 'daily' ? 'daily-' : ''}${stamp}${backupSuffix}`;
}

/** The backups in a folder (by their names), newest first. */
export function listBackups(folder: string): Array<{ file: string; daily: boolean; takenAt: Date }> {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .flatMap((name) => {
      const match = backupName.exec(name);
      if (!match) return [];
      const [date, time] = match[2]!.split('T') as [string, string];
      const [hours, minutes, seconds, millis] = time.replace('Z', '').split('-');
      const takenAt = new Date(`${date}T${hours}:${minutes}:${seconds}.${millis}Z`);
      return [{ file: path.join(folder, name), daily: Boolean(match[1]), takenAt }];
    })
    .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/** Deletes the daily backups beyond the newest `keep` (with their checksums); others' are left alone. */
export function pruneBackups(folder: string, keep: number): string[] {
  const old = listBackups(folder)
    .filter((backup) => backup.daily)
    .slice(keep);
  for (const backup of old) {
    fs.rmSync(backup.file, { force: true });
    fs.rmSync(`${backup.file}${checksumSuffix}`, { force: true });
  }
  // A backup cut short (the process killed while writing it) leaves a `.partial` file: gone after a day.
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
    const file = path.join(folder, name);
    if (name.endsWith('.partial') && Date.now() - fs.statSync(file).mtimeMs > dayMs)
      fs.rmSync(file, { force: true });
  }
  return old.map((backup) => backup.file);
}

type BackupLog = {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
};

/**
 * The embedded database's daily backup: at start and then every hour, when the newest backup in
 * DATA_DIR/backups (daily or `npm run backup`'s) is a day old or more, one is taken (through the
 * running cluster's socket, as its superuser) and the daily ones beyond `config.backupsKept` are
 * deleted. Nothing with DATABASE_URL (that database's own backups are its operator's) or
 * BACKUPS_KEPT=0. A failed backup is logged and tried again at the next check. The timers do not keep
 * the process alive; stop() abandons a backup under way, so a shutdown never waits for one.
 */
export function startDailyBackups(options: {
  config: Pick<Config, 'dataDir' | 'backupsKept'>;
  database: Pick<Database, 'kind'>;
  log: BackupLog;
  /** Tests: how often to look, how old the newest may be, and the database to back up. */
  checkEveryMs?: number;
  maxAgeMs?: number;
  ownerUrl?: string;
}): { stop(): Promise<void>; check(): Promise<void> } {
  const { config, database, log } = options;
  if (database.kind !== 'embedded' || config.backupsKept === 0) {
    return { stop: async () => {}, check: async () => {} };
  }
  const folder = path.join(config.dataDir, 'backups');
  const maxAgeMs = options.maxAgeMs ?? dayMs;
  let running: Promise<void> | undefined;
  let stopped = false;
  const stopping = new AbortController();

  const takeIfDue = async () => {
    const newest = listBackups(folder)[0];
    if (newest && Date.now() - newest.takenAt.getTime() < maxAgeMs) return;
    const url = options.ownerUrl ?? runningClusterUrl(config.dataDir);
    if (!url) throw new Error('the embedded database is not running');
    const result = await writeBackup(url, path.join(folder, backupFileName(new Date(), 'daily')), {
      signal: stopping.signal,
    });
    const deleted = pruneBackups(folder, config.backupsKept);
    log.info(
      { file: result.file, bytes: result.bytes, ms: result.ms, rows: result.rows, deleted },
      `daily backup written to ${result.file}`,
    );
  };
  const check = () => {
    if (stopped) return Promise.resolve();
    running ??= takeIfDue()
      .catch((error: unknown) => {
        if (!stopped) log.error({ err: error }, 'the daily backup failed; trying again within the hour');
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const first = setTimeout(() => void check(), 0);
  first.unref();
  const timer = setInterval(() => void check(), options.checkEveryMs ?? 3_600_000);
  timer.unref();
  return {
    check,
    /** Stops the checks; a backup under way is abandoned (its partial file deleted), not waited for. */
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
