import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { startDailyBackups } from './db/backups';
import { openDatabase } from './db/client';
import { EmbeddedPostgresError } from './db/embedded-postgres-error';
import { DataDirLockedError } from './db/lock';
import { DatabaseRoleError } from './db/roles';

/**
 * JSON lines for machines (log collectors, files, CI); for a person at a terminal (`npm start`,
 * `npm run dev` on a TTY) the same lines pretty-printed: time, level and message, colours, no pid or
 * hostname. Routine requests are logged at debug level only (app.ts), so the terminal stays quiet.
 * LOG_FORMAT=json keeps JSON on a terminal too.
 */
function loggerOptions(level: string) {
  const pretty = process.stdout.isTTY === true && process.env.LOG_FORMAT !== 'json';
  if (!pretty) return { level };
  return {
    level,
    transport: {
      target: 'pino-pretty',
      options: {
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId',
        singleLine: false,
      },
    },
  };
}

/** Starts the server: config, database (migrated), app; stops cleanly on SIGTERM/SIGINT. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, appUrl: config.databaseAppUrl, warmConnections: 10 }
      : {
          kind: 'embedded',
          dataDir: config.dataDir,
          warmConnections: 10,
          // Its PostgreSQL ended unasked (killed, crashed): started again at once; calls meanwhile answer
          // 503. If it will not start, the process ends, so a supervisor can start everything afresh.
          watch: {
            exited: (reason) =>
              console.error(`The embedded database stopped (${reason}); starting it again.`),
            restarted: () => console.error('The embedded database is running again.'),
            lost: (error) => {
              console.error(`${error.message}\nDealmaker stops: it cannot serve without its database.`);
              process.exit(1);
            },
          },
        },
  );
  const app = await buildApp({ config, database, logger: loggerOptions(config.logLevel) });
  let stopping = false;
  let backups: { stop(): Promise<void> } | undefined;
  /**
   * SIGTERM (a deploy, systemd, the load balancer's rolling restart) or Ctrl-C: /api/ready answers 503
   * at once; once a load balancer checking it has seen that (at most a few seconds), the instance stops
   * taking connections, tells its sockets to reconnect (to another instance), answers what is in
   * flight, lets running jobs finish (or hands them back to the queue), closes Redis, and stops the
   * embedded database cleanly — all within SHUTDOWN_TIMEOUT_SECONDS, or it exits anyway.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timeoutMs = config.shutdownTimeoutMs;
    app.log.info(`${signal} received: finishing in-flight requests, then closing the database`);
    const timer = setTimeout(() => {
      app.log.error(`shutdown took longer than ${timeoutMs / 1000} s; exiting`);
      process.exit(1);
    }, timeoutMs);
    try {
      app.lifecycle.beginStopping();
      await app.lifecycle.untilLoadBalancerKnows(Math.min(5_000, timeoutMs / 4));
      await app.close();
      // A daily backup under way is dropped (its partial file removed), never waited for.
      await backups?.stop();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    } finally {
      clearTimeout(timer);
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The embedded database's daily backups in DATA_DIR/backups (BACKUPS_KEPT; none with DATABASE_URL).
  backups = startDailyBackups({ config, database, log: app.log });
  if (!config.jwtSecret) {
    app.log.warn(
      'JWT_SECRET is not set: sign-in tokens are signed with a secret generated once and kept in the database. ' +
        'Set JWT_SECRET (at least 32 random characters) in production, so that a copy of the database cannot forge them.',
    );
  }
  if (!config.encryptionKey) {
    app.log.warn(
      'ENCRYPTION_KEY is not set: the secrets of authenticator apps are encrypted with a key generated once and kept in the database. ' +
        'Set ENCRYPTION_KEY (at least 32 random characters) in production, so that a copy of the database does not reveal them.',
    );
  }
  if (!database.login.restricted) {
    app.log.warn(
      `The server runs as the database's owner (${database.login.user}): DATABASE_URL's role may not create roles and DATABASE_APP_URL is not set. ` +
        "The owner can disable the audit log's triggers and then change or delete it, so a SQL injection could too. " +
        'Create a login role without privileges and set DATABASE_APP_URL to it (README, Configuration).',
    );
  }
  if (app.metricsUrl) app.log.info(`Prometheus metrics at ${app.metricsUrl}`);
  app.log.info(
    `Dealmaker is running at ${config.publicUrl} (${database.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}${config.redisUrl ? ', Redis' : ''})`,
  );
}

main().catch((error) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof DatabaseRoleError
  ) {
    console.error(error.message);
  } else {
    console.error('Dealmaker could not start:', error);
  }
  process.exit(1);
});
