import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { limits } from '../contract/limits';

/** `burst` events at once, then `perSecond` on average. */
export type BucketRule = { burst: number; perSecond: number };

/** How many events a socket and its user may send (applied by realtime/event-limits.ts). */
export type SocketEventLimits = {
  /** What one socket may send. */
  perSocket: BucketRule;
  /** What one user may send over all their sockets on this instance. */
  perUser: BucketRule;
  /**
   * How many of a socket's events may be dropped before it is disconnected as a flooder: `burst` drops
   * in a row, each forgiven after 1 / `perSecond` seconds.
   */
  drops: BucketRule;
};

type RateLimitRules = Record<keyof (typeof limits)['rateLimits'], { points: number; seconds: number }>;

const optionalUrl = (protocols: string[], what: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine(
      (value) =>
        value === undefined ||
        (protocols.some((protocol) => value.startsWith(`${protocol}://`)) && URL.canParse(value)),
      `must be a ${what} URL (${protocols.map((p) => `${p}://…`).join(' or ')})`,
    );

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql'], 'PostgreSQL'),
  DATABASE_APP_URL: optionalUrl(['postgres', 'postgresql'], 'PostgreSQL'),
  REDIS_URL: optionalUrl(['redis', 'rediss'], 'Redis'),
  // Part of Redis channel patterns (the Socket.IO adapter subscribes with `<prefix>…#*`): no glob characters.
  REDIS_PREFIX: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9:_.-]*$/,
      'must be letters, digits and : _ . - (starting with a letter or digit)',
    )
    .optional(),
  SMTP_URL: optionalUrl(['smtp', 'smtps'], 'SMTP'),
  PUBLIC_URL: optionalUrl(['http', 'https'], 'http(s)'),
  JWT_SECRET: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
  ENCRYPTION_KEY: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.every((origin) => /^https?:\/\/[^/]+$/.test(origin)), {
      message: 'must be comma-separated origins like https://example.com',
    }),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  MAIL_FROM: z.string().trim().default('Dealmaker <no-reply@dealmaker.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Hours, decimals allowed (0.001 is 3.6 s): a trial or a test can watch a deadline pass.
  ESCROW_HALF_TIMEOUT_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(72),
  MILESTONE_AUTO_RELEASE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(336),
  /** How long the first mail of a saved search's new matches waits to gather a burst (under a minute). */
  SAVED_SEARCH_MAIL_GATHER_SECONDS: z.coerce.number().min(0).max(59).default(30),
  DISPUTE_ESCALATION_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(168),
  // Prometheus metrics on their own port (never the public one); unset: no metrics server.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  // Minutes, decimals allowed (tests run it every few seconds).
  LEDGER_CHECK_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(15),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(20),
  // The embedded database's daily backups kept in DATA_DIR/backups; 0 turns them off.
  BACKUPS_KEPT: z.coerce.number().int().min(0).max(365).default(7),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A login role without privileges of its own for the server's queries, when DATABASE_URL's role may
   * not create one (a managed database); unset: the server makes `<database>_app` (server/db/roles.ts).
   */
  databaseAppUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string | undefined;
  /** Encrypts the secrets of authenticator apps at rest; unset: generated once and kept in the database. */
  encryptionKey: string | undefined;
  corsOrigins: string[];
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (sign-in limits count per address). */
  trustProxy: boolean;
  mailFrom: string;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  /** How long one paid half waits for the other before it is refunded by itself. */
  escrowHalfTimeoutMs: number;
  /** How long a submitted milestone waits for the dealers' approval before it is released by itself. */
  milestoneAutoReleaseMs: number;
  /** How long the first mail of a saved search's new matches waits, gathering others with it. */
  savedSearchMailGatherSeconds: number;
  /** How long an open dispute waits for a settlement before it goes to the operators by itself. */
  disputeEscalationMs: number;
  /** Prometheus metrics' port (`/metrics`); undefined: no metrics server. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** How often the ledger check runs by itself (its result is a metric per invariant). */
  ledgerCheckMs: number;
  /** How long a stopping instance may take (SIGTERM) before it exits anyway. */
  shutdownTimeoutMs: number;
  /** How many daily backups the embedded database keeps (0: none are taken). */
  backupsKept: number;
  /** How often each instance looks for due deadlines (default 2 s; tests shorten it). Not read from the environment. */
  jobPollingSeconds?: number;
  /**
   * REDIS_PREFIX: the start of every Redis key and channel the product uses (the Socket.IO adapter's
   * channels, the rate limits' counters). Only instances with the same prefix share events and counts,
   * so deployments sharing one Redis stay apart: by default it is derived from the database
   * (`defaultRedisPrefix`). Tests give each group of servers its own.
   */
  redisPrefix: string;
  /** How long a typing indicator lives without a stop (default `typingTimeoutMs` of realtime/typing.ts); tests shorten it. */
  typingTimeoutMs?: number;
  /**
   * The rate limits (default `limits.rateLimits` of contract/limits.ts). The test harness relaxes the
   * per-address ones, since every test client comes from 127.0.0.1; the rate-limit tests use the defaults.
   */
  rateLimits?: Partial<RateLimitRules>;
  /** How long a connection may take to send its request headers (default `headersTimeoutMs` of app.ts); tests shorten it. */
  headersTimeoutMs?: number;
  /** How long a connection may take to send its whole request, body included (default `requestTimeoutMs` of app.ts); tests shorten it. */
  requestTimeoutMs?: number;
  /** How many events a socket and a user may send (default `defaultSocketEventLimits` of realtime/event-limits.ts); tests change it. */
  socketEventLimits?: Partial<SocketEventLimits>;
  /** How long typing outlives a socket's own leave-deal-room (default `rejoinGraceMs` of realtime/typing.ts); tests shorten it. */
  typingRejoinGraceMs?: number;
};

export class ConfigError extends Error {}

/** Reads and validates the environment (DESIGN.md §1); throws one message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A blank variable (`PORT=` in an env file) means "not set", as for the URLs: otherwise PORT= would
  // listen on a random port and MAIL_FROM= would send mail from nobody.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()));
  const parsed = environmentSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const appUrlProblem = databaseAppUrlProblem(e.DATABASE_APP_URL, e.DATABASE_URL);
  if (appUrlProblem) throw new ConfigError(`Invalid configuration:\n  DATABASE_APP_URL: ${appUrlProblem}`);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseAppUrl: e.DATABASE_APP_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX ?? defaultRedisPrefix(e.DATABASE_URL, path.resolve(e.DATA_DIR)),
    smtpUrl: e.SMTP_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    escrowHalfTimeoutMs: Math.round(e.ESCROW_HALF_TIMEOUT_HOURS * 3_600_000),
    milestoneAutoReleaseMs: Math.round(e.MILESTONE_AUTO_RELEASE_HOURS * 3_600_000),
    savedSearchMailGatherSeconds: e.SAVED_SEARCH_MAIL_GATHER_SECONDS,
    disputeEscalationMs: Math.round(e.DISPUTE_ESCALATION_HOURS * 3_600_000),
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    ledgerCheckMs: Math.round(e.LEDGER_CHECK_MINUTES * 60_000),
    shutdownTimeoutMs: Math.round(e.SHUTDOWN_TIMEOUT_SECONDS * 1000),
    backupsKept: e.BACKUPS_KEPT,
    ...(given.RATE_LIMITS ? { rateLimits: rateLimitsFromEnvironment(given.RATE_LIMITS) } : {}),
  };
}

/**
 * RATE_LIMITS: JSON replacing some limits of contract/limits.ts, e.g.
 * `{"messagesPerUser":{"points":1000000,"seconds":60}}` — for the benchmarks, which flood one user's chat
 * on purpose. Unknown names are refused by the rate limits themselves (server/lib/rate-limits.ts).
 */
function rateLimitsFromEnvironment(text: string): Partial<RateLimitRules> {
  const rule = z
    .object({ points: z.number().int().positive(), seconds: z.number().int().positive() })
    .strict();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const rules = z.record(z.string(), rule).safeParse(parsed);
  if (!rules.success) {
    throw new ConfigError(
      'Invalid configuration:\n  RATE_LIMITS: must be JSON like {"messagesPerUser":{"points":1000,"seconds":60}}',
    );
  }
  return rules.data as Partial<RateLimitRules>;
}

/**
 * `dealmaker:` and a short hash of the database the instance uses (DATABASE_URL's host, port and
 * database name, or the embedded database's folder): the instances of one deployment share it whatever
 * their credentials, and two deployments on one Redis differ without anyone setting REDIS_PREFIX.
 */
export function defaultRedisPrefix(databaseUrl: string | undefined, dataDir: string): string {
  let identity = `embedded:${dataDir}`;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    identity = `postgres:${url.hostname.toLowerCase()}:${url.port || '5432'}/${url.pathname.slice(1)}`;
  }
  return `dealmaker:${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}

/** What is wrong with DATABASE_APP_URL beside DATABASE_URL, if anything. */
function databaseAppUrlProblem(appUrl: string | undefined, ownerUrl: string | undefined) {
  if (!appUrl) return undefined;
  if (!ownerUrl) {
    return 'is used only with DATABASE_URL (the embedded database makes its restricted role itself)';
  }
  const user = decodeURIComponent(new URL(appUrl).username);
  if (!user) return 'must name the login role (postgres://role:password@host/database)';
  if (user === decodeURIComponent(new URL(ownerUrl).username)) {
    return "must name another role than DATABASE_URL's: the server's login must not own the tables";
  }
  return undefined;
}
