import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createDisputeSchema, disputeSchema, resolveDisputeSchema } from '../../../contract/collaboration';
import { dealIdParamSchema, idParamSchema } from '../../../contract/deals';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;
const tags = ['disputes'];
const security = bearerSecurity;
const guarded = signedIn;

export const disputesRoutes: FastifyPluginAsyncZod = async (app) => {
  const disputes = app.services.disputes;

  app.post(
    '/api/disputes',
    {
      ...guarded,
      schema: { tags, security, body: createDisputeSchema, response: { 201: disputeSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await disputes.raise(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/disputes/deal/:dealId',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: dealIdParamSchema,
        response: { 200: z.array(disputeSchema), ...errors },
      },
    },
    async (request) => disputes.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.put(
    '/api/disputes/:id/resolve',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamSchema,
        body: resolveDisputeSchema,
        response: { 200: disputeSchema, ...errors },
      },
    },
    async (request) => disputes.resolve(request.params.id, currentUser(request).id, request.body.resolution),
  );
};
