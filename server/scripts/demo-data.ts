// `npm run demo-data`: fills the configured database (DATA_DIR or DATABASE_URL, exactly as the server
// opens it) with demo users, through the same services the API uses. Running it again changes nothing.
import type { FastifyBaseLogger } from 'fastify';
import { type Config, ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import type { Mail, Mailer } from '../lib/mail';
import { createServices, type Services } from '../services';

const demoPassword = 'dealmaker-demo';

const demoUsers = [
  {
    username: 'alice',
    full_name: 'Alice Martin',
    occupation: 'Founder, Martin Logistics',
    address: 'Lyon, France',
  },
  { username: 'bob', full_name: 'Bob Chen', occupation: 'Procurement manager', address: 'Singapore' },
  { username: 'carol', full_name: 'Carol Okafor', occupation: 'M&A advisor', address: 'Lagos, Nigeria' },
  { username: 'dave', full_name: 'Dave Kowalski', occupation: 'Freight broker', address: 'Chicago, USA' },
  {
    username: 'erin',
    full_name: 'Erin Walsh',
    occupation: 'Contract negotiator',
    address: 'Dublin, Ireland',
  },
] as const;

type DemoUsername = (typeof demoUsers)[number]['username'];

/** What the steps share: the services, and the ids of the demo users once the first step ran. */
type SeedContext = {
  services: Services;
  /** Mails the services sent while seeding (nothing leaves the machine). */
  mails: Mail[];
  userIds: Partial<Record<DemoUsername, number>>;
  log: (line: string) => void;
};

/**
 * One step per kind of demo data, run in order. Each step must be idempotent on its own:
 * it looks for what it would create and leaves existing data alone.
 * Later steps (deals, bids, wallets, …) go after `users` and use `context.userIds`.
 */
type SeedStep = { name: string; run: (context: SeedContext) => Promise<void> };

const seedSteps: SeedStep[] = [{ name: 'users', run: seedUsers }];

/** Registers, verifies and fills in the profile of each demo user that does not exist yet. */
async function seedUsers(context: SeedContext) {
  const { services } = context;
  for (const demo of demoUsers) {
    const existing = await services.users.getByUsername(demo.username).catch(() => undefined);
    if (existing) {
      context.userIds[demo.username] = existing.id;
      context.log(`${demo.username} exists already (left as it is)`);
      continue;
    }
    const email = `${demo.username}@dealmaker.example`;
    try {
      await services.auth.register({
        username: demo.username,
        email,
        password: demoPassword,
        full_name: demo.full_name,
      });
    } catch (error) {
      // An unverified account holds the name or the email: someone registered it by hand.
      context.log(`${demo.username} skipped: ${(error as Error).message}`);
      continue;
    }
    const mail = context.mails.findLast((m) => m.to === email);
    const key = mail?.link.split('/').pop();
    if (!key) throw new Error(`no verification mail was produced for ${demo.username}`);
    await services.auth.verifyEmail(key);
    const user = await services.users.getByUsername(demo.username);
    await services.profile.update(user.id, {
      full_name: demo.full_name,
      occupation: demo.occupation,
      address: demo.address,
      date_of_birth: null,
    });
    context.userIds[demo.username] = user.id;
    context.log(`${demo.username} created (${demo.full_name}, ${demo.occupation})`);
  }
}

/** Only warnings and errors of the services reach the terminal. */
function quietLogger(): FastifyBaseLogger {
  const nothing = () => {};
  const logger = {
    level: 'warn',
    fatal: (...args: unknown[]) => console.error(...args),
    error: (...args: unknown[]) => console.error(...args),
    warn: (...args: unknown[]) => console.warn(...args),
    info: nothing,
    debug: nothing,
    trace: nothing,
    silent: nothing,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: config.dataDir },
    );
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(
        `The Dealmaker server (or another process) is using the data folder ${config.dataDir}.\n` +
          'Stop the server first, then run `npm run demo-data` again.',
      );
      process.exit(1);
    }
    throw error;
  }

  const mails: Mail[] = [];
  const mailer: Mailer = {
    async send(mail) {
      mails.push(mail);
    },
  };
  const services = await createServices({ config, db: database.db, mailer, log: quietLogger() });
  const context: SeedContext = { services, mails, userIds: {}, log: (line) => console.log(`  ${line}`) };
  try {
    console.log(
      `Demo data for ${database.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    );
    for (const step of seedSteps) {
      console.log(`${step.name}:`);
      await step.run(context);
    }
    console.log(
      `\nSign in as ${demoUsers.map((u) => u.username).join(', ')} with the password '${demoPassword}'.`,
    );
  } finally {
    await services.close();
    await database.close();
  }
}

main().catch((error) => {
  console.error('Creating the demo data failed:', error);
  process.exit(1);
});
