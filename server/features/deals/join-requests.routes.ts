import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  askToJoinSchema,
  joinDecisionResponseSchema,
  joinRequestListSchema,
  joinRequestSchema,
} from '../../../contract/deal-changes';
import { errorBodySchema } from '../../../contract/errors';
import { decimalId, idParamSchema } from '../../../contract/fields';
import { currentUser, routeDefaults } from '../../lib/route-guard';

const requestParamsSchema = z.object({ id: decimalId(), requestId: decimalId() });

/** Asking to join a deal posted with joinPolicy 'approval', and its creator's answer. */
export const joinRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['deals'], signedIn: true });
  const { joinRequests, rateLimits } = app.services;

  app.get(
    '/api/deals/:id/join-requests',
    {
      schema: {
        description:
          "The deal's requests to join, newest first: all of them to its creator, one's own to anyone else.",
        params: idParamSchema,
        response: { 200: joinRequestListSchema },
      },
    },
    async (request) => joinRequests.list(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/deals/:id/join-requests',
    {
      schema: {
        description: "Asks the creator of an 'approval' deal to accept the caller as its counterpart.",
        params: idParamSchema,
        body: askToJoinSchema,
        response: { 201: joinRequestSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      // Counted before anything is written: a refused request reaches nobody.
      await rateLimits.consume(['joinRequestsPerUser', String(id)]);
      return reply.status(201).send(await joinRequests.ask(request.params.id, id, request.body.message));
    },
  );

  app.post(
    '/api/deals/:id/join-requests/:requestId/accept',
    { schema: { params: requestParamsSchema, response: { 200: joinDecisionResponseSchema } } },
    async (request) =>
      joinRequests.accept(request.params.id, request.params.requestId, currentUser(request).id),
  );

  app.post(
    '/api/deals/:id/join-requests/:requestId/decline',
    { schema: { params: requestParamsSchema, response: { 200: joinDecisionResponseSchema } } },
    async (request) =>
      joinRequests.decline(request.params.id, request.params.requestId, currentUser(request).id),
  );
};
