import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createProgressSchema,
  progressItemSchema,
  progressStatusChangeSchema,
} from '../../../contract/collaboration';
import { dealIdParamSchema, idParamSchema } from '../../../contract/deals';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;
const tags = ['progress'];
const security = bearerSecurity;
const guarded = signedIn;

export const progressRoutes: FastifyPluginAsyncZod = async (app) => {
  const progress = app.services.progress;

  app.post(
    '/api/progress',
    {
      ...guarded,
      schema: {
        tags,
        security,
        body: createProgressSchema,
        response: { 201: progressItemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await progress.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/progress/deal/:dealId',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: dealIdParamSchema,
        response: { 200: z.array(progressItemSchema), ...errors },
      },
    },
    async (request) => progress.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.put(
    '/api/progress/:id/status',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description: 'pending → in_progress → completed, or in_progress → pending; completed is final.',
        params: idParamSchema,
        body: progressStatusChangeSchema,
        response: { 200: progressItemSchema, ...errors },
      },
    },
    async (request) => progress.changeStatus(request.params.id, currentUser(request).id, request.body.status),
  );
};
