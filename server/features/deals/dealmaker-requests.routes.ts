import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptRequestResponseSchema,
  dealmakerRequestSchema,
  incomingRequestSchema,
  rejectRequestResponseSchema,
  sendRequestSchema,
} from '../../../contract/deals';
import { errorBodySchema } from '../../../contract/errors';
import { dealIdParamSchema, idParamSchema, messageResponseSchema } from '../../../contract/fields';
import { publicInfoQuerySchema, userListSchema } from '../../../contract/users';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const dealmakerRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['dealmaker requests'], signedIn: true });
  const { dealmakerRequests: requests, rateLimits } = app.services;

  app.post(
    '/api/request-dealmaker/send-request',
    {
      schema: {
        body: sendRequestSchema,
        response: { 201: dealmakerRequestSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      // Counted before anything is written: a refused request reaches nobody.
      await rateLimits.consume(['dealmakerRequestsPerUser', String(id)]);
      return reply.status(201).send(await requests.send(id, request.body));
    },
  );

  // Registered before /:dealId so that "my-requests" is not read as a deal id.
  app.get(
    '/api/request-dealmaker/my-requests',
    {
      schema: {
        description: 'Requests waiting for the caller’s answer, each with its deal.',
        response: { 200: z.array(incomingRequestSchema) },
      },
    },
    async (request) => requests.incoming(currentUser(request).id),
  );

  app.get(
    '/api/request-dealmaker/:dealId',
    {
      schema: {
        params: dealIdParamSchema,
        response: { 200: z.array(dealmakerRequestSchema) },
      },
    },
    async (request) => requests.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.post(
    '/api/request-dealmaker/accept/:id',
    {
      schema: {
        params: idParamSchema,
        response: { 200: acceptRequestResponseSchema },
      },
    },
    async (request) => requests.accept(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/request-dealmaker/reject/:id',
    {
      schema: {
        params: idParamSchema,
        response: { 200: rejectRequestResponseSchema },
      },
    },
    async (request) => requests.reject(request.params.id, currentUser(request).id),
  );

  app.delete(
    '/api/request-dealmaker/cancel/:id',
    {
      schema: {
        params: idParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => requests.cancel(request.params.id, currentUser(request).id),
  );

  app.get(
    '/api/auth/public-info',
    {
      schema: {
        tags: ['users'],
        description:
          'Users to request as dealmaker: never the caller, nor (with dealId) the deal’s dealers or dealmaker.',
        querystring: publicInfoQuerySchema,
        response: { 200: userListSchema },
      },
    },
    async (request) =>
      requests.candidates(currentUser(request).id, request.query.keyword, request.query.dealId),
  );
};
