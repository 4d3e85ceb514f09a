import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import { dealIdParamSchema } from '../../../contract/fields';
import {
  markMessagesReadSchema,
  messageHistoryQuerySchema,
  messageReadsSchema,
  messageSchema,
  messagesReadAnswerSchema,
  sendMessageSchema,
  unreadMessagesSchema,
} from '../../../contract/messages';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['messages'], signedIn: true });
  const { messages, rateLimits } = app.services;

  app.post(
    '/api/messages/send',
    {
      schema: { body: sendMessageSchema, response: { 201: messageSchema, 429: errorBodySchema } },
    },
    async (request, reply) => {
      const sender = currentUser(request);
      // The hot path: one limiter call (in memory, or one Redis round trip), no database query; counted
      // before the message is stored, so a refused one reaches nobody.
      await rateLimits.consume(['messagesPerUser', String(sender.id)]);
      return reply.status(201).send(await messages.send(sender, request.body));
    },
  );

  app.get(
    '/api/messages/deal/:dealId',
    {
      schema: {
        description:
          'One page of the deal’s messages, oldest first: the latest page, older ones with `before`, or those after an id with `after` (catching up).',
        params: dealIdParamSchema,
        querystring: messageHistoryQuerySchema,
        response: { 200: z.array(messageSchema) },
      },
    },
    async (request) => messages.history(request.params.dealId, currentUser(request).id, request.query),
  );

  app.get(
    '/api/messages/unread',
    {
      schema: {
        description: 'The caller’s deals with messages from others they have not read yet.',
        response: { 200: unreadMessagesSchema },
      },
    },
    async (request) => messages.unread(currentUser(request).id),
  );

  app.post(
    '/api/messages/deal/:dealId/read',
    {
      schema: {
        description:
          'Marks the deal’s chat read up to a message (a lower id than before changes nothing); the other participants get `messages-read`.',
        params: dealIdParamSchema,
        body: markMessagesReadSchema,
        response: { 200: messagesReadAnswerSchema },
      },
    },
    async (request) =>
      messages.markRead(request.params.dealId, currentUser(request), request.body.lastReadId),
  );

  app.get(
    '/api/messages/deal/:dealId/reads',
    {
      schema: {
        description:
          'How far each participant has read the deal’s chat (the caller included): the "new messages" divider and "Seen by".',
        params: dealIdParamSchema,
        response: { 200: messageReadsSchema },
      },
    },
    async (request) => messages.readMarks(request.params.dealId, currentUser(request).id),
  );
};
