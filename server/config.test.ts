import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const variables = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'SMTP_URL',
  'PUBLIC_URL',
  'JWT_SECRET',
  'CORS_ORIGINS',
  'TRUST_PROXY',
  'MAIL_FROM',
  'LOG_LEVEL',
  'ESCROW_HALF_TIMEOUT_HOURS',
  'DISPUTE_ESCALATION_HOURS',
  'METRICS_PORT',
  'METRICS_HOST',
  'LEDGER_CHECK_MINUTES',
  'SHUTDOWN_TIMEOUT_SECONDS',
  'BACKUPS_KEPT',
];

/** The ConfigError loadConfig throws for this environment. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** The variables a ConfigError's message names, in its order. */
const named = (error: ConfigError) =>
  error.message
    .split('\n')
    .slice(1)
    .map((line) => /^ {2}([A-Z_]+): \S/.exec(line)?.[1]);

describe('loadConfig', () => {
  it('runs with no variables at all (embedded mode)', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      redisPrefix: expect.stringMatching(/^dealmaker:[0-9a-f]{12}$/),
      smtpUrl: undefined,
      publicUrl: 'http://localhost:3000',
      jwtSecret: undefined,
      corsOrigins: [],
      trustProxy: false,
      mailFrom: 'Dealmaker <no-reply@dealmaker.local>',
      logLevel: 'info',
      escrowHalfTimeoutMs: 72 * 3_600_000,
      milestoneAutoReleaseMs: 336 * 3_600_000,
      savedSearchMailGatherSeconds: 30,
      disputeEscalationMs: 168 * 3_600_000,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      ledgerCheckMs: 15 * 60_000,
      shutdownTimeoutMs: 20_000,
      backupsKept: 7,
    });
  });

  it('reads every variable (scale-out mode)', () => {
    const secret = 's'.repeat(32);
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/dealmaker',
        DATABASE_URL: 'postgres://app:pw@db:5432/dealmaker',
        REDIS_URL: 'redis://cache:6379/0',
        REDIS_PREFIX: 'deals-eu:prod',
        SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
        PUBLIC_URL: 'https://deals.example.com/',
        JWT_SECRET: secret,
        CORS_ORIGINS: ' https://a.example.com , http://localhost:5173,',
        TRUST_PROXY: 'true',
        MAIL_FROM: 'Deals <deals@example.com>',
        LOG_LEVEL: 'warn',
        ESCROW_HALF_TIMEOUT_HOURS: '0.001',
        MILESTONE_AUTO_RELEASE_HOURS: '0.002',
        SAVED_SEARCH_MAIL_GATHER_SECONDS: '5',
        DISPUTE_ESCALATION_HOURS: '48',
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
        LEDGER_CHECK_MINUTES: '0.5',
        SHUTDOWN_TIMEOUT_SECONDS: '30',
        BACKUPS_KEPT: '0',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/dealmaker',
      databaseUrl: 'postgres://app:pw@db:5432/dealmaker',
      redisUrl: 'redis://cache:6379/0',
      redisPrefix: 'deals-eu:prod',
      smtpUrl: 'smtps://mailer:pw@smtp.example.com:465',
      publicUrl: 'https://deals.example.com',
      jwtSecret: secret,
      corsOrigins: ['https://a.example.com', 'http://localhost:5173'],
      trustProxy: true,
      mailFrom: 'Deals <deals@example.com>',
      logLevel: 'warn',
      escrowHalfTimeoutMs: 3_600,
      milestoneAutoReleaseMs: 7_200,
      savedSearchMailGatherSeconds: 5,
      disputeEscalationMs: 48 * 3_600_000,
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      ledgerCheckMs: 30_000,
      shutdownTimeoutMs: 30_000,
      backupsKept: 0,
    });
  });

  it('derives the public URL from the port and resolves a relative data folder', () => {
    const config = loadConfig({ PORT: '4321', DATA_DIR: 'relative/data' });
    expect(config.publicUrl).toBe('http://localhost:4321');
    expect(config.dataDir).toBe(path.resolve('relative/data'));
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/db' }).databaseUrl).toBe(
      'postgresql://localhost/db',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://example.com///' }).publicUrl).toBe('http://example.com');
  });

  it('treats blank variables as not set', () => {
    const blank = Object.fromEntries(variables.map((name) => [name, '']));
    expect(loadConfig(blank)).toEqual(loadConfig({}));
    const spaces = Object.fromEntries(variables.map((name) => [name, '   ']));
    expect(loadConfig(spaces)).toEqual(loadConfig({}));
  });

  it('reads TRUST_PROXY as a boolean', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('derives REDIS_PREFIX from the database: the same for one database, different for another', () => {
    const prefix = (env: NodeJS.ProcessEnv) => loadConfig(env).redisPrefix;
    const database = 'postgres://app:pw@db.example.com:5432/dealmaker';
    expect(prefix({ DATABASE_URL: database })).toMatch(/^dealmaker:[0-9a-f]{12}$/);
    // Whoever signs in, however: one database.
    for (const same of [
      'postgres://migrator:other@DB.example.com/dealmaker',
      'postgresql://app@db.example.com:5432/dealmaker?sslmode=require',
    ]) {
      expect(prefix({ DATABASE_URL: same }), same).toBe(prefix({ DATABASE_URL: database }));
    }
    for (const other of [
      'postgres://app:pw@db.example.com:5432/dealmaker_staging',
      'postgres://app:pw@db2.example.com:5432/dealmaker',
      'postgres://app:pw@db.example.com:5433/dealmaker',
    ]) {
      expect(prefix({ DATABASE_URL: other }), other).not.toBe(prefix({ DATABASE_URL: database }));
    }
    // Embedded: the data folder.
    expect(prefix({ DATA_DIR: '/srv/a' })).not.toBe(prefix({ DATA_DIR: '/srv/b' }));
    expect(prefix({ DATA_DIR: '/srv/a' })).toBe(prefix({ DATA_DIR: '/srv/a/' }));
    expect(prefix({ DATA_DIR: '/srv/a', REDIS_PREFIX: 'mine' })).toBe('mine');
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', NODE_ENV: 'production', HOME: '' })).toEqual(loadConfig({}));
  });

  const invalid: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://db/app'],
    ['DATABASE_URL', 'localhost:5432'],
    ['REDIS_URL', 'http://cache:6379'],
    ['REDIS_PREFIX', 'deals*'],
    ['REDIS_PREFIX', 'a b'],
    ['REDIS_PREFIX', ':leading'],
    ['REDIS_PREFIX', 'x'.repeat(101)],
    ['SMTP_URL', 'mail.example.com:25'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'example.com'],
    ['PUBLIC_URL', 'http://'],
    ['PUBLIC_URL', 'http://exa mple.com'],
    ['JWT_SECRET', 'too-short-secret'],
    ['JWT_SECRET', 'x'.repeat(31)],
    ['CORS_ORIGINS', 'example.com'],
    ['CORS_ORIGINS', 'https://a.example.com/path'],
    ['CORS_ORIGINS', 'https://a.example.com,*'],
    ['TRUST_PROXY', 'yes'],
    ['LOG_LEVEL', 'verbose'],
    ['ESCROW_HALF_TIMEOUT_HOURS', '0'],
    ['ESCROW_HALF_TIMEOUT_HOURS', '-1'],
    ['ESCROW_HALF_TIMEOUT_HOURS', 'soon'],
    ['DISPUTE_ESCALATION_HOURS', '9000'],
    ['METRICS_PORT', '70000'],
    ['LEDGER_CHECK_MINUTES', '0'],
    ['SHUTDOWN_TIMEOUT_SECONDS', 'soon'],
    ['BACKUPS_KEPT', '-1'],
  ];
  it.each(invalid)('refuses %s=%s with a ConfigError naming it', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message.startsWith('Invalid configuration:\n')).toBe(true);
    expect(named(error)).toEqual([name]);
    if (name === 'JWT_SECRET') {
      expect(error.message).not.toContain(value);
      expect(error.message).toContain('must be at least 32 characters');
    }
  });

  it('names every invalid variable at once', () => {
    const error = configError({ PORT: 'x', REDIS_URL: 'nope', JWT_SECRET: 'short', LOG_LEVEL: 'loud' });
    expect(named(error)).toEqual(['PORT', 'REDIS_URL', 'JWT_SECRET', 'LOG_LEVEL']);
    expect(error.message).toContain('REDIS_URL: must be a Redis URL (redis://… or rediss://…)');
  });
});
