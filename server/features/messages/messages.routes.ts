import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dealIdParamSchema } from '../../../contract/deals';
import { errorBodySchema } from '../../../contract/errors';
import { messageHistoryQuerySchema, messageSchema, sendMessageSchema } from '../../../contract/messages';
import { authenticate, bearerSecurity, currentUser } from '../auth/auth.guard';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['messages'];
const security = bearerSecurity;

export const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const messages = app.services.messages;

  app.post(
    '/api/messages/send',
    {
      preHandler: authenticate,
      schema: { tags, security, body: sendMessageSchema, response: { 201: messageSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await messages.send(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/messages/deal/:dealId',
    {
      preHandler: authenticate,
      schema: {
        tags,
        security,
        description:
          'One page of the deal’s messages, oldest first: the latest page, or older ones with `before`.',
        params: dealIdParamSchema,
        querystring: messageHistoryQuerySchema,
        response: { 200: z.array(messageSchema), ...errors },
      },
    },
    async (request) => messages.history(request.params.dealId, currentUser(request).id, request.query),
  );
};
