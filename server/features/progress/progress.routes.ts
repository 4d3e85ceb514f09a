import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dealIdParamSchema, idParamSchema } from '../../../contract/fields';
import {
  createProgressSchema,
  progressItemSchema,
  progressStatusChangeSchema,
} from '../../../contract/progress';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const progressRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['progress'], signedIn: true });
  const progress = app.services.progress;

  app.post(
    '/api/progress',
    {
      schema: {
        body: createProgressSchema,
        response: { 201: progressItemSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await progress.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/progress/deal/:dealId',
    {
      schema: {
        params: dealIdParamSchema,
        response: { 200: z.array(progressItemSchema) },
      },
    },
    async (request) => progress.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.put(
    '/api/progress/:id/status',
    {
      schema: {
        description: 'pending → in_progress → completed, or in_progress → pending; completed is final.',
        params: idParamSchema,
        body: progressStatusChangeSchema,
        response: { 200: progressItemSchema },
      },
    },
    async (request) => progress.changeStatus(request.params.id, currentUser(request).id, request.body.status),
  );
};
