import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, errorCodes } from '../../../contract/errors';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        description: '`{ status: "ok" }` once the database answers.',
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
};
