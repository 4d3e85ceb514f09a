import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dealIdParamSchema,
  dealmakerRequestSchema,
  dealSchema,
  idParamSchema,
  incomingRequestSchema,
  sendRequestSchema,
} from '../../../contract/deals';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;
const tags = ['dealmaker requests'];
const security = bearerSecurity;
const guarded = signedIn;

export const dealmakerRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  const requests = app.services.dealmakerRequests;

  app.post(
    '/api/request-dealmaker/send-request',
    {
      ...guarded,
      schema: {
        tags,
        security,
        body: sendRequestSchema,
        response: { 201: dealmakerRequestSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requests.send(currentUser(request).id, request.body)),
  );

  // Registered before /:dealId so that "my-requests" is not read as a deal id.
  app.get(
    '/api/request-dealmaker/my-requests',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description: 'Requests waiting for the caller’s answer, each with its deal.',
        response: { 200: z.array(incomingRequestSchema), ...errors },
      },
    },
    async (request) => requests.incoming(currentUser(request).id),
  );

  app.get(
    '/api/request-dealmaker/:dealId',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: dealIdParamSchema,
        response: { 200: z.array(dealmakerRequestSchema), ...errors },
      },
    },
    async (request) => requests.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.post(
    '/api/request-dealmaker/accept/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamSchema,
        response: { 200: z.object({ message: z.string(), deal: dealSchema }), ...errors },
      },
    },
    async (request) => requests.accept(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/request-dealmaker/reject/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamSchema,
        response: { 200: z.object({ message: z.string(), request: dealmakerRequestSchema }), ...errors },
      },
    },
    async (request) => requests.reject(request.params.id, currentUser(request).id),
  );

  app.delete(
    '/api/request-dealmaker/cancel/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: idParamSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => requests.cancel(request.params.id, currentUser(request).id),
  );
};
