import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { editDealSchema } from '../../../contract/deal-changes';
import {
  activityEntrySchema,
  createDealSchema,
  dealListSchema,
  dealSchema,
  dealSearchParamsSchema,
} from '../../../contract/deals';
import {
  dealCountSchema,
  dealFilterQuerySchema,
  dealListItemsSchema,
  dealListQuerySchema,
} from '../../../contract/discovery';
import { errorBodySchema } from '../../../contract/errors';
import { idParamSchema, messageResponseSchema, pageQuerySchema } from '../../../contract/fields';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const dealsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['deals'], signedIn: true });
  const { deals, rateLimits } = app.services;

  app.get(
    '/api/deals/all',
    {
      schema: {
        description:
          'The deals list, newest first; with q (keywords), status, minBudget, maxBudget or sort, the deals found, each keyword result with a snippet.',
        querystring: dealListQuerySchema,
        response: { 200: dealListItemsSchema },
      },
    },
    async (request) => deals.find(currentUser(request).id, request.query),
  );

  app.get(
    '/api/deals/count',
    {
      schema: {
        description: 'How many deals the filters of GET /api/deals/all find: exact up to 1,000, then `more`.',
        querystring: dealFilterQuerySchema,
        response: { 200: dealCountSchema },
      },
    },
    async (request) => deals.count(request.query),
  );

  app.get(
    '/api/deals/all/:keyword',
    {
      schema: {
        description:
          'Deals whose title or description contains the keyword (case-insensitive), newest first.',
        params: dealSearchParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: dealListSchema },
      },
    },
    async (request) =>
      deals.list(currentUser(request).id, { ...request.query, keyword: request.params.keyword }),
  );

  app.get('/api/deals/my-deals', { schema: { response: { 200: dealListSchema } } }, async (request) =>
    deals.myDeals(currentUser(request).id),
  );

  app.get('/api/deals/dealmaker-deals', { schema: { response: { 200: dealListSchema } } }, async (request) =>
    deals.dealmakerDeals(currentUser(request).id),
  );

  app.get(
    '/api/deals/activity/:username',
    {
      schema: {
        description:
          'The deals a user takes part in (creator, counterpart or dealmaker), with their role, newest first.',
        params: z.object({ username: z.string().max(100) }),
        response: { 200: z.array(activityEntrySchema) },
      },
    },
    async (request) => deals.activityOf(request.params.username, currentUser(request).id),
  );

  app.get(
    '/api/deals/:id',
    {
      schema: { params: idParamSchema, response: { 200: dealSchema } },
    },
    async (request) => deals.get(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/deals/create-deal',
    {
      schema: { body: createDealSchema, response: { 201: dealSchema, 429: errorBodySchema } },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      // Counted before anything is written: a refused deal leaves nothing behind.
      await rateLimits.consume(['dealsPerUser', String(id)]);
      return reply.status(201).send(await deals.create(id, request.body));
    },
  );

  app.patch(
    '/api/deals/:id',
    {
      schema: {
        description:
          'The creator changes the title, description, budget or timeline while the deal has no dealmaker.',
        params: idParamSchema,
        body: editDealSchema,
        response: { 200: dealSchema },
      },
    },
    async (request) => deals.edit(request.params.id, currentUser(request).id, request.body),
  );

  app.delete(
    '/api/deals/:id/counterpart',
    {
      schema: {
        description: 'The creator removes the counterpart while no escrow half is paid (as if they left).',
        params: idParamSchema,
        response: { 200: dealSchema },
      },
    },
    async (request) => deals.removeCounterpart(request.params.id, currentUser(request).id),
  );

  app.put(
    '/api/deals/join-deal-as-dealer/:id',
    {
      schema: { params: idParamSchema, response: { 200: dealSchema } },
    },
    async (request) => deals.join(request.params.id, currentUser(request).id),
  );

  app.put(
    '/api/deals/leave-deal-as-dealer/:id',
    {
      schema: { params: idParamSchema, response: { 200: dealSchema } },
    },
    async (request) => deals.leave(request.params.id, currentUser(request).id),
  );

  app.delete(
    '/api/deals/delete-deal/:id',
    {
      schema: { params: idParamSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => deals.delete(request.params.id, currentUser(request).id),
  );
};
