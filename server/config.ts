import path from 'node:path';
import { z } from 'zod';

const optionalUrl = (protocols: string[], what: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine(
      (value) => value === undefined || protocols.some((protocol) => value.startsWith(`${protocol}://`)),
      `must be a ${what} URL (${protocols.map((p) => `${p}://…`).join(' or ')})`,
    );

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql'], 'PostgreSQL'),
  REDIS_URL: optionalUrl(['redis', 'rediss'], 'Redis'),
  SMTP_URL: optionalUrl(['smtp', 'smtps'], 'SMTP'),
  PUBLIC_URL: optionalUrl(['http', 'https'], 'http(s)'),
  JWT_SECRET: z
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
  MAIL_FROM: z.string().trim().default('Dealmaker <no-reply@dealmaker.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string | undefined;
  corsOrigins: string[];
  mailFrom: string;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
};

export class ConfigError extends Error {}

/** Reads and validates the environment (DESIGN.md §1); throws one message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    corsOrigins: e.CORS_ORIGINS,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
  };
}
