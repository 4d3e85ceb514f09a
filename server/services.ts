import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { DealAccess } from './core/deal/deal-access';
import type { Database, Db } from './db/client';
import { createTransact } from './db/transaction';
import { AuditService } from './features/audit/audit.service';
import { AccountSecurityService } from './features/auth/account-security.service';
import { AuthService } from './features/auth/auth.service';
import { PasskeysService } from './features/auth/passkeys.service';
import { SecondFactorService } from './features/auth/second-factor.service';
import { SessionsService } from './features/auth/sessions.service';
import { BidsService } from './features/deals/bids.service';
import { DealmakerRequestsService } from './features/deals/dealmaker-requests.service';
import { DealsService } from './features/deals/deals.service';
import { JoinRequestsService } from './features/deals/join-requests.service';
import { DisputesService } from './features/disputes/disputes.service';
import { SettlementService } from './features/disputes/settlement.service';
import { CompletionService } from './features/escrow/completion.service';
import { EscrowService } from './features/escrow/escrow.service';
import { MilestonesService } from './features/escrow/milestones.service';
import { MessagesService } from './features/messages/messages.service';
import { NotificationsService } from './features/notifications/notifications.service';
import { OperatorService } from './features/operator/operator.service';
import { ProfileService } from './features/profile/profile.service';
import { ProgressService } from './features/progress/progress.service';
import { ReviewsService } from './features/reviews/reviews.service';
import { SavedSearchesService } from './features/saved-searches/saved-searches.service';
import { TimelineService } from './features/timeline/timeline.service';
import { UsersService } from './features/users/users.service';
import { onMoneyMovement } from './features/wallet/ledger';
import { checkLedgerEvery } from './features/wallet/ledger-check';
import { WalletService } from './features/wallet/wallet.service';
import { BackgroundTasks } from './lib/background';
import { EventPublisher } from './lib/events';
import { Jobs } from './lib/jobs';
import type { Mailer } from './lib/mail';
import { Metrics } from './lib/metrics';
import { RateLimits } from './lib/rate-limits';
import { RedisConnections } from './lib/redis';

export type ServiceDeps = {
  config: Config;
  db: Db;
  /** The instance's Prometheus metrics (lib/metrics.ts): services count what they do in them. */
  metrics?: Metrics;
  /** Plain SQL on the database's pool (the job queue's). */
  executeSql: Database['executeSql'];
  mailer: Mailer;
  log: FastifyBaseLogger;
};

/**
 * Builds every feature's service once, each after the ones it needs (no
 * feature needs one built after it): features reach each other only through these.
 */
export async function createServices(deps: ServiceDeps) {
  const { db, config } = deps;
  const transact = createTransact(db, deps.log);
  const events = new EventPublisher();
  const background = new BackgroundTasks(deps.log);
  // Counters shared by every instance through Redis when there is one.
  const redisConnections = config.redisUrl ? new RedisConnections(config.redisUrl, deps.log) : undefined;
  const redis = await redisConnections?.connect('rate limits', { queueWhileAway: false });
  const metrics = deps.metrics ?? new Metrics();
  const rateLimits = new RateLimits({
    redis,
    onRefusal: (limit) => metrics.rateLimitRefusals.inc({ limit }),
    keyPrefix: config.redisPrefix,
    rules: config.rateLimits,
  });
  // Deadlines (a lone escrow half, a stalled dispute) kept by pg-boss in the database.
  const jobs = await Jobs.start({
    executeSql: deps.executeSql,
    pollingIntervalSeconds: config.jobPollingSeconds,
    log: deps.log,
    observer: {
      started: (queue, lateness) => metrics.jobLateness.observe({ queue }, lateness),
      failed: (queue) => metrics.jobFailures.inc({ queue }),
    },
  });
  metrics.measure({ queueDepths: () => jobs.depths() });
  const stopCountingMoney = onMoneyMovement((kind, cents) => {
    metrics.moneyMovements.inc({ kind });
    metrics.moneyMovedCents.inc({ kind }, cents);
  });
  const audit = new AuditService({ db });
  const users = new UsersService({ db });
  const notifications = new NotificationsService({ ...deps, events, background });
  const sessions = new SessionsService({ ...deps, events, notifications, background });
  const passkeys = new PasskeysService({ db, config });
  const secondFactor = await SecondFactorService.create({ db, config, rateLimits, passkeys });
  const authDeps = {
    ...deps,
    transact,
    users,
    events,
    rateLimits,
    background,
    audit,
    sessions,
    passkeys,
    secondFactor,
  };
  const auth = await AuthService.create(authDeps);
  const accountSecurity = new AccountSecurityService(authDeps);
  const profile = new ProfileService({ db, transact, users, rateLimits });
  const dealAccess = new DealAccess({ db, events });
  const timeline = new TimelineService({ db, deals: dealAccess, notifications });
  const wallet = new WalletService({ db, transact });
  const escrow = new EscrowService({
    db,
    transact,
    deals: dealAccess,
    wallets: wallet,
    timeline,
    events,
    deadlines: { jobs, halfTimeoutMs: config.escrowHalfTimeoutMs },
  });
  const deals = new DealsService({ db, transact, deals: dealAccess, escrow, users, timeline, events });
  const savedSearches = new SavedSearchesService({
    ...deps,
    transact,
    notifications,
    events,
    jobs,
    background,
  });
  // Every public change to a deal (posted, edited, joined, chosen, completed) may make it fit a saved search.
  dealAccess.whenAnnounced((dealId) => savedSearches.dealChanged(dealId));
  const bids = new BidsService({ db, transact, deals: dealAccess, escrow, timeline, events });
  const dealmakerRequests = new DealmakerRequestsService({
    db,
    transact,
    deals: dealAccess,
    escrow,
    users,
    timeline,
    events,
  });
  const joinRequests = new JoinRequestsService({ db, transact, deals: dealAccess, timeline, events });
  const messages = new MessagesService({
    db,
    transact,
    deals: dealAccess,
    notifications,
    events,
    log: deps.log,
  });
  const progress = new ProgressService({ db, transact, deals: dealAccess, timeline, events });
  const reviews = new ReviewsService({ db, transact, deals: dealAccess, users, timeline });
  const milestones = new MilestonesService({
    db,
    transact,
    deals: dealAccess,
    escrow,
    timeline,
    deadlines: { jobs, autoReleaseMs: config.milestoneAutoReleaseMs },
  });
  const disputes = new DisputesService({
    milestones,
    db,
    transact,
    deals: dealAccess,
    timeline,
    events,
    deadlines: { jobs, escalationMs: config.disputeEscalationMs },
  });
  const settlements = new SettlementService({
    db,
    transact,
    deals: dealAccess,
    escrow,
    disputes,
    users,
    timeline,
    audit,
  });
  const completion = new CompletionService({ transact, deals: dealAccess, escrow, timeline });
  const operator = new OperatorService({
    deals: dealAccess,
    disputes,
    settlements,
    escrow,
    timeline,
    wallet,
    audit,
  });

  await jobs.work('escrow-half-expiry', ({ dealId }) => escrow.expireLoneHalf(dealId));
  await jobs.work('milestone-auto-release', ({ milestoneId }) => milestones.releaseWhenDue(milestoneId));
  await jobs.work('dispute-escalation', ({ disputeId }) => disputes.escalateWhenDue(disputeId));
  await jobs.work('saved-search-mail', ({ savedSearchId }) => savedSearches.mailWhenDue(savedSearchId));
  await disputes.scheduleMissingDeadlines();
  const ledgerChecks = checkLedgerEvery(
    db,
    config.ledgerCheckMs,
    (result) => {
      for (const check of result.checks) {
        metrics.ledgerCheckViolations.set({ invariant: check.name }, check.violations.length);
      }
      metrics.ledgerCheckLastRun.set(Date.now() / 1000);
    },
    deps.log,
  );

  return {
    db,
    events,
    background,
    rateLimits,
    metrics,
    /** The instance's Redis clients (REDIS_URL), also used by realtime; undefined without Redis. */
    redisConnections,
    /** Closes what the services hold open (Redis), once nothing runs in the background. */
    async close() {
      stopCountingMoney();
      ledgerChecks.stop();
      await jobs.stop();
      await background.idle();
      if (redis) await redisConnections?.close(redis);
    },
    audit,
    auth,
    accountSecurity,
    sessions,
    users,
    profile,
    dealAccess,
    notifications,
    timeline,
    wallet,
    escrow,
    milestones,
    completion,
    deals,
    savedSearches,
    bids,
    dealmakerRequests,
    joinRequests,
    messages,
    progress,
    reviews,
    disputes,
    settlements,
    operator,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
