import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, errorCodes } from '../../../contract/errors';
import { migrationsFolder } from '../../paths';

const readinessChecksSchema = z.object({
  database: z.enum(['up', 'down']),
  migrations: z.enum(['done', 'pending', 'unknown']),
  redis: z.enum(['up', 'down', 'not used']),
  instance: z.enum(['serving', 'stopping']),
});
const readinessSchema = z.object({
  status: z.enum(['ready', 'degraded']),
  checks: readinessChecksSchema,
});
const notReadySchema = errorBodySchema.extend({
  status: z.literal('unavailable'),
  checks: readinessChecksSchema,
});

/** When the newest migration this code brings was made (drizzle's journal): the database must have it. */
const newestMigration: number = Math.max(
  ...(
    JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ when: number }>;
    }
  ).entries.map((entry) => entry.when),
);

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        description: 'Liveness: `{ status: "ok" }` once the database answers.',
        response: { 200: z.object({ status: z.literal('ok') }), 503: errorBodySchema },
      },
    },
    async (_request, reply) => {
      try {
        await app.services.db.execute(sql`select 1`);
        return { status: 'ok' as const };
      } catch {
        return reply
          .status(503)
          .send({ message: 'The database is not answering.', code: errorCodes.unavailable });
      }
    },
  );

  // Once seen, the migrations stay done: later checks only ask whether the database answers.
  let migrationsDone = false;
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        description:
          "The load balancer's check: 200 when this instance can serve (the database answers and has every " +
          'migration), with `status: "degraded"` when Redis is away (HTTP still works); 503 naming what is ' +
          'missing, or that the instance is stopping.',
        response: { 200: readinessSchema, 503: notReadySchema },
      },
    },
    async (_request, reply) => {
      app.lifecycle.readyChecked();
      let database: 'up' | 'down' = 'up';
      let migrations: 'done' | 'pending' | 'unknown' = migrationsDone ? 'done' : 'unknown';
      try {
        if (migrationsDone) {
          await app.services.db.execute(sql`select 1`);
        } else {
          const result = (await app.services.db.execute(
            sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
          )) as unknown as { rows: Array<{ newest: string | null }> };
          migrationsDone = Number(result.rows[0]?.newest ?? 0) >= newestMigration;
          migrations = migrationsDone ? 'done' : 'pending';
        }
      } catch {
        database = 'down';
      }
      const checks = {
        database,
        migrations,
        redis: app.services.redisConnections?.state ?? ('not used' as const),
        instance: app.lifecycle.stopping ? ('stopping' as const) : ('serving' as const),
      };
      const missing = [
        database === 'down' && 'the database is not answering',
        database === 'up' && migrations !== 'done' && 'the database misses migrations',
        checks.instance === 'stopping' && 'the instance is stopping',
      ].filter((reason): reason is string => typeof reason === 'string');
      if (missing.length > 0) {
        return reply.status(503).send({
          message: `Not ready: ${missing.join('; ')}.`,
          code: errorCodes.unavailable,
          status: 'unavailable' as const,
          checks,
        });
      }
      return { status: checks.redis === 'down' ? ('degraded' as const) : ('ready' as const), checks };
    },
  );
};
