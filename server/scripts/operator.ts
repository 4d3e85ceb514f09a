import { eq, sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config';
import { type Database, openDatabase } from '../db/client';
import { users } from '../db/schema';
import { AuditService } from '../features/audit/audit.service';

/**
 * `npm run operator -- grant <username>` · `revoke <username>` · `list`
 *
 * The only way to make a user an operator (no HTTP call can): it runs on the
 * server's machine, against the server's database (DATABASE_URL, or the
 * embedded database of DATA_DIR — the running server's when there is one).
 * Each grant and revoke is written to the audit log. A signed-in user's
 * change takes effect within a second (the server re-reads account state).
 * It runs as the server's restricted role, like the server: changing a user
 * and adding to the audit log is all it does, and nothing here needs more.
 */
const usage = 'Usage: npm run operator -- grant <username> | revoke <username> | list';

async function open(): Promise<Database> {
  const config = loadConfig();
  if (config.databaseUrl) {
    return openDatabase({
      kind: 'postgres',
      url: config.databaseUrl,
      appUrl: config.databaseAppUrl,
      poolSize: 2,
    });
  }
  const { runningClusterUrl } = await import('../db/embedded-postgres');
  const running = runningClusterUrl(config.dataDir);
  if (running) return openDatabase({ kind: 'postgres', url: running, poolSize: 2 });
  return openDatabase({ kind: 'embedded', dataDir: config.dataDir });
}

async function setOperator(database: Database, username: string, isOperator: boolean) {
  const [user] = await database.db
    .select({ id: users.id, username: users.username, isOperator: users.isOperator })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  if (!user) throw new Error(`No user is called "${username}".`);
  if (user.isOperator === isOperator) {
    return `${user.username} ${isOperator ? 'is already' : 'was not'} an operator: nothing changed.`;
  }
  await database.db.transaction(async (tx) => {
    await tx.update(users).set({ isOperator, updatedAt: new Date() }).where(eq(users.id, user.id));
    await new AuditService({ db: database.db }).record(
      {
        action: isOperator ? 'operator.grant' : 'operator.revoke',
        actor: null,
        address: null,
        subject: `user:${user.id}`,
        before: { username: user.username, isOperator: user.isOperator },
        after: { username: user.username, isOperator, by: 'npm run operator' },
      },
      tx,
    );
  });
  return isOperator
    ? `${user.username} is now an operator: the Operator console is at /operator.`
    : `${user.username} is no longer an operator.`;
}

async function main() {
  const [command, username] = process.argv.slice(2);
  if (!(command === 'list' || ((command === 'grant' || command === 'revoke') && username))) {
    console.error(usage);
    process.exit(2);
  }
  let database: Database;
  try {
    database = await open();
  } catch (error) {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `Could not open the database: ${(error as Error).message}`,
    );
    process.exit(1);
  }
  try {
    if (command === 'list') {
      const operators = await database.db
        .select({ username: users.username })
        .from(users)
        .where(eq(users.isOperator, true))
        .orderBy(users.username);
      console.log(operators.length ? operators.map((row) => row.username).join('\n') : 'No operators yet.');
    } else {
      console.log(await setOperator(database, username!, command === 'grant'));
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

await main();
