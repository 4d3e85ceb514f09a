// `npm run demo-data`: fills the configured database (DATA_DIR or DATABASE_URL, exactly as the server
// opens it, as the same restricted role) with demo users, through the same services the API uses.
// Running it again changes nothing.
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

const seedSteps: SeedStep[] = [
  { name: 'users', run: seedUsers },
  { name: 'wallets', run: seedWallets },
  { name: 'open deals, bids and a request', run: seedOpenDeals },
  { name: 'a deal in progress', run: seedDealInProgress },
  { name: 'a completed deal with reviews', run: seedCompletedDeal },
];

/** Registers, verifies and fills in the profile of each demo user that does not exist yet. */
async function seedUsers(context: SeedContext) {
  const { services } = context;
  for (const demo of demoUsers) {
    const existing = await services.users.findVerifiedByUsername(demo.username).catch(() => undefined);
    if (existing) {
      context.userIds[demo.username] = existing.id;
      context.log(`${demo.username} exists already (left as it is)`);
      continue;
    }
    const email = `${demo.username}@dealmaker.example`;
    try {
      await services.auth.register(
        {
          username: demo.username,
          email,
          password: demoPassword,
          full_name: demo.full_name,
        },
        // Not a client: the per-address registration limit (kept in Redis when REDIS_URL is set, so it
        // outlives this command) must not stop a second run within the hour.
        null,
      );
    } catch (error) {
      // An unverified account holds the name or the email: someone registered it by hand.
      context.log(`${demo.username} skipped: ${(error as Error).message}`);
      continue;
    }
    const mail = context.mails.findLast((m) => m.to === email);
    const key = mail?.link.split('/').pop();
    if (!key) throw new Error(`no verification mail was produced for ${demo.username}`);
    await services.auth.verifyEmail(key);
    const user = await services.users.findVerifiedByUsername(demo.username);
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

const cents = (dollars: number) => Math.round(dollars * 100);

function idOf(context: SeedContext, username: DemoUsername): number {
  const id = context.userIds[username];
  if (id === undefined) throw new Error(`demo user ${username} is missing`);
  return id;
}

/**
 * Creates the deal unless its creator already has a deal with this title (so a second run
 * changes nothing); returns its id and whether it is new.
 */
async function ensureDeal(
  context: SeedContext,
  creator: DemoUsername,
  deal: { title: string; description: string; budget: number; timeline: string },
) {
  const creatorId = idOf(context, creator);
  const existing = (await context.services.deals.myDeals(creatorId)).find((d) => d.title === deal.title);
  if (existing) {
    context.log(`"${deal.title}" exists already (left as it is)`);
    return { id: existing.id, created: false };
  }
  const created = await context.services.deals.create(creatorId, {
    ...deal,
    budget: cents(deal.budget),
    joinPolicy: 'open',
  });
  context.log(`"${deal.title}" created by ${creator}`);
  return { id: created.id, created: true };
}

/** Every demo user starts with money to pay escrow from (only on the first run). */
async function seedWallets(context: SeedContext) {
  const { services } = context;
  for (const demo of demoUsers) {
    const userId = idOf(context, demo.username);
    const wallet = await services.wallet.get(userId);
    if (wallet.totalDeposited > 0) continue;
    await services.wallet.deposit(userId, cents(25_000));
    context.log(`${demo.username}: deposited $25,000.00`);
  }
}

/** A living marketplace: open deals, one with a counterpart and bids, one with a pending request. */
async function seedOpenDeals(context: SeedContext) {
  const { services } = context;
  const freight = await ensureDeal(context, 'alice', {
    title: 'Cold-chain freight partner for EU expansion',
    description:
      'Martin Logistics is opening three refrigerated routes from Lyon to Milan, Munich and Barcelona. ' +
      'We need a dealmaker to negotiate a two-year carrier agreement with volume discounts.',
    budget: 12_000,
    timeline: '6 weeks',
  });
  if (freight.created) {
    await services.deals.join(freight.id, idOf(context, 'bob'));
    await services.bids.create(idOf(context, 'carol'), {
      dealId: freight.id,
      price: cents(10_500),
      proposal:
        'I have closed carrier agreements on the Lyon–Milan corridor for five years and know the volume tiers.',
      deliveryDays: 30,
    });
    await services.bids.create(idOf(context, 'dave'), {
      dealId: freight.id,
      price: cents(9_800),
      proposal: null,
      deliveryDays: null,
    });
    context.log('bob joined it; carol and dave bid');
  }
  const packaging = await ensureDeal(context, 'bob', {
    title: 'Sustainable packaging supplier in Southeast Asia',
    description:
      'Looking for a supplier of compostable packaging for 2 million units a year, with samples ' +
      'and a quality audit before signing.',
    budget: 8_500.5,
    timeline: '2 months',
  });
  if (packaging.created) {
    await services.dealmakerRequests.send(idOf(context, 'bob'), {
      dealId: packaging.id,
      receiverUsername: 'erin',
      message: 'I would like to request you to be a dealmaker for my deal.',
    });
    context.log('bob sent erin a dealmaker request');
  }
  await ensureDeal(context, 'dave', {
    title: 'Warehouse lease renegotiation in Chicago',
    description: 'Our 40,000 sq ft lease renews in spring. We want better terms and a five-year option.',
    budget: 5_000,
    timeline: '3 months',
  });
}

/** A hired dealmaker at work: escrow locked, progress under way, a conversation going. */
async function seedDealInProgress(context: SeedContext) {
  const { services } = context;
  const deal = await ensureDeal(context, 'carol', {
    title: 'Acquisition of a regional courier company',
    description: 'Carol is buying a 60-van courier business; Erin negotiates the share purchase agreement.',
    budget: 20_000,
    timeline: '10 weeks',
  });
  if (!deal.created) return;
  await hire(context, deal.id, { creator: 'carol', counterpart: 'dave', dealmaker: 'erin' });
  const erin = idOf(context, 'erin');
  const steps = [
    ['Due diligence checklist', 'Financials, fleet condition and customer contracts.'],
    ['Term sheet', 'Price, earn-out and warranties agreed in principle.'],
    ['Share purchase agreement', 'Final agreement ready for signature.'],
  ] as const;
  const items = [];
  for (const [title, description] of steps) {
    items.push(await services.progress.create(erin, { dealId: deal.id, title, description }));
  }
  await services.progress.changeStatus(items[0]!.id, erin, 'in_progress');
  await services.progress.changeStatus(items[0]!.id, erin, 'completed');
  await services.progress.changeStatus(items[1]!.id, erin, 'in_progress');
  const conversation: Array<[DemoUsername, string]> = [
    ['carol', 'Erin, the data room is open. Fleet reports are in folder 3.'],
    ['erin', 'Thanks! Due diligence is done; I am drafting the term sheet now.'],
    ['dave', 'Please keep the earn-out under 20% of the price.'],
  ];
  for (const [sender, content] of conversation) {
    await services.messages.send(
      { id: idOf(context, sender), username: sender },
      { dealId: deal.id, content },
    );
  }
  context.log('carol and dave hired erin, paid escrow; two steps started, three messages');
}

/** A finished deal: paid out to the dealmaker, and everyone reviewed everyone. */
async function seedCompletedDeal(context: SeedContext) {
  const { services } = context;
  const deal = await ensureDeal(context, 'alice', {
    title: 'Office furniture bulk purchase',
    description: 'Furniture for a new 120-seat office, delivered and installed.',
    budget: 3_000,
    timeline: '3 weeks',
  });
  if (!deal.created) return;
  await hire(context, deal.id, { creator: 'alice', counterpart: 'erin', dealmaker: 'carol' });
  await services.completion.markFinished(deal.id, idOf(context, 'alice'));
  await services.completion.markFinished(deal.id, idOf(context, 'erin'));
  const reviews: Array<[DemoUsername, DemoUsername, number, string]> = [
    ['alice', 'carol', 5, 'Carol got us 18% off and handled every supplier call.'],
    ['erin', 'carol', 4, 'Very good negotiator, a little slow on paperwork.'],
    ['carol', 'alice', 5, 'Clear goals and fast decisions.'],
    ['carol', 'erin', 4, 'Reliable partner.'],
    ['alice', 'erin', 5, 'Great to work with.'],
    ['erin', 'alice', 5, 'Smooth from start to finish.'],
  ];
  for (const [reviewer, reviewed, rating, comment] of reviews) {
    await services.reviews.create(idOf(context, reviewer), {
      dealId: deal.id,
      reviewedUsername: reviewed,
      rating,
      comment,
    });
  }
  context.log('completed; carol was paid $3,000.00; six reviews left');
}

/** Joins the counterpart, hires the dealmaker by an accepted request, and both dealers pay their halves. */
async function hire(
  context: SeedContext,
  dealId: number,
  people: { creator: DemoUsername; counterpart: DemoUsername; dealmaker: DemoUsername },
) {
  const { services } = context;
  await services.deals.join(dealId, idOf(context, people.counterpart));
  const request = await services.dealmakerRequests.send(idOf(context, people.creator), {
    dealId,
    receiverUsername: people.dealmaker,
    message: 'I would like to request you to be a dealmaker for my deal.',
  });
  await services.dealmakerRequests.accept(request.id, idOf(context, people.dealmaker));
  await services.escrow.pay(dealId, idOf(context, people.creator));
  await services.escrow.pay(dealId, idOf(context, people.counterpart));
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
        ? { kind: 'postgres', url: config.databaseUrl, appUrl: config.databaseAppUrl }
        : { kind: 'embedded', dataDir: config.dataDir },
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
  const services = await createServices({
    config,
    db: database.db,
    executeSql: database.executeSql,
    mailer,
    log: quietLogger(),
  });
  const context: SeedContext = { services, mails, userIds: {}, log: (line) => console.log(`  ${line}`) };
  try {
    console.log(
      `Demo data for ${database.kind === 'embedded' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    );
    for (const step of seedSteps) {
      console.log(`${step.name}:`);
      await step.run(context);
    }
    console.log(
      `\nSign in as ${demoUsers.map((u) => u.username).join(', ')} with the password '${demoPassword}'.`,
    );
  } finally {
    // The job queue's timers would keep the process alive.
    await services.close();
    await database.close();
  }
}

main().catch((error) => {
  console.error('Creating the demo data failed:', error);
  process.exit(1);
});
