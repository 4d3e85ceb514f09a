import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bidSchema,
  createBidSchema,
  selectBidResponseSchema,
  updateBidSchema,
} from '../../../contract/deals';
import { myBidSchema, myBidsQuerySchema } from '../../../contract/discovery';
import { errorBodySchema } from '../../../contract/errors';
import { dealIdParamSchema, idParamSchema, messageResponseSchema } from '../../../contract/fields';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const bidsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['bids'], signedIn: true });
  const { bids, rateLimits } = app.services;

  app.post(
    '/api/bidding/create',
    {
      schema: { body: createBidSchema, response: { 201: bidSchema, 429: errorBodySchema } },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      // Counted before anything is written: a refused bid leaves nothing behind.
      await rateLimits.consume(['bidsPerUser', String(id)]);
      return reply.status(201).send(await bids.create(id, request.body));
    },
  );

  app.put(
    '/api/bidding/:id',
    {
      schema: {
        params: idParamSchema,
        body: updateBidSchema,
        response: { 200: bidSchema },
      },
    },
    async (request) => bids.update(request.params.id, currentUser(request).id, request.body),
  );

  app.delete(
    '/api/bidding/:id',
    {
      schema: { params: idParamSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => bids.delete(request.params.id, currentUser(request).id),
  );

  app.get(
    '/api/bidding/deal/:dealId',
    {
      schema: {
        description: 'The dealers of the deal see every bid; anyone else only their own.',
        params: dealIdParamSchema,
        response: { 200: z.array(bidSchema) },
      },
    },
    async (request) => bids.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.get(
    '/api/bids/mine',
    {
      schema: {
        description:
          "The caller's bids, newest first, with their deal and what became of them (pending, selected by one dealer, won, lost, deal deleted).",
        querystring: myBidsQuerySchema,
        response: { 200: z.array(myBidSchema) },
      },
    },
    async (request) => bids.mine(currentUser(request).id, request.query),
  );

  app.put(
    '/api/bid-management/select-bid/:dealId/:bidId',
    {
      schema: {
        description:
          "Toggles the caller's selection; the same bid selected by both dealers finalizes the deal.",
        params: z.object({
          dealId: idParamSchema.shape.id,
          bidId: idParamSchema.shape.id,
        }),
        response: { 200: selectBidResponseSchema },
      },
    },
    async (request) => bids.select(request.params.dealId, request.params.bidId, currentUser(request).id),
  );
};
