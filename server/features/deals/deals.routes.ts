import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityEntrySchema,
  bidSchema,
  createBidSchema,
  createDealSchema,
  dealIdParamSchema,
  dealListQuerySchema,
  dealListSchema,
  dealSchema,
  dealSearchParamsSchema,
  idParamSchema,
  updateBidSchema,
} from '../../../contract/deals';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;
const messageSchema = z.object({ message: z.string() });
const guarded = signedIn;
const security = bearerSecurity;

export const dealsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deals, bids } = app.services;
  const tags = ['deals'];

  app.get(
    '/api/deals/all',
    {
      ...guarded,
      schema: {
        tags,
        security,
        querystring: dealListQuerySchema,
        response: { 200: dealListSchema, ...errors },
      },
    },
    async (request) => deals.list(currentUser(request).id, request.query),
  );

  app.get(
    '/api/deals/all/:keyword',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description:
          'Deals whose title or description contains the keyword (case-insensitive), newest first.',
        params: dealSearchParamsSchema,
        querystring: dealListQuerySchema,
        response: { 200: dealListSchema, ...errors },
      },
    },
    async (request) =>
      deals.list(currentUser(request).id, { ...request.query, keyword: request.params.keyword }),
  );

  app.get(
    '/api/deals/my-deals',
    { ...guarded, schema: { tags, security, response: { 200: dealListSchema, ...errors } } },
    async (request) => deals.myDeals(currentUser(request).id),
  );

  app.get(
    '/api/deals/dealmaker-deals',
    { ...guarded, schema: { tags, security, response: { 200: dealListSchema, ...errors } } },
    async (request) => deals.dealmakerDeals(currentUser(request).id),
  );

  app.get(
    '/api/deals/activity/:username',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description:
          'The deals a user takes part in (creator, counterpart or dealmaker), with their role, newest first.',
        params: z.object({ username: z.string().max(100) }),
        response: { 200: z.array(activityEntrySchema), ...errors },
      },
    },
    async (request) => {
      const user = await app.services.users.findVerifiedByUsername(request.params.username);
      return deals.activityOf(user.id, currentUser(request).id);
    },
  );

  app.get(
    '/api/deals/:id',
    {
      ...guarded,
      schema: { tags, security, params: idParamSchema, response: { 200: dealSchema, ...errors } },
    },
    async (request) => deals.get(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/deals/create-deal',
    {
      ...guarded,
      schema: { tags, security, body: createDealSchema, response: { 201: dealSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await deals.create(currentUser(request).id, request.body)),
  );

  app.put(
    '/api/deals/join-deal-as-dealer/:id',
    {
      ...guarded,
      schema: { tags, security, params: idParamSchema, response: { 200: dealSchema, ...errors } },
    },
    async (request) => deals.join(request.params.id, currentUser(request).id),
  );

  app.put(
    '/api/deals/leave-deal-as-dealer/:id',
    {
      ...guarded,
      schema: { tags, security, params: idParamSchema, response: { 200: dealSchema, ...errors } },
    },
    async (request) => deals.leave(request.params.id, currentUser(request).id),
  );

  app.delete(
    '/api/deals/delete-deal/:id',
    {
      ...guarded,
      schema: { tags, security, params: idParamSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => deals.delete(request.params.id, currentUser(request).id),
  );

  const bidTags = ['bids'];

  app.post(
    '/api/bidding/create',
    {
      ...guarded,
      schema: { tags: bidTags, security, body: createBidSchema, response: { 201: bidSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await bids.create(currentUser(request).id, request.body)),
  );

  app.put(
    '/api/bidding/:id',
    {
      ...guarded,
      schema: {
        tags: bidTags,
        security,
        params: idParamSchema,
        body: updateBidSchema,
        response: { 200: bidSchema, ...errors },
      },
    },
    async (request) => bids.update(request.params.id, currentUser(request).id, request.body),
  );

  app.delete(
    '/api/bidding/:id',
    {
      ...guarded,
      schema: { tags: bidTags, security, params: idParamSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => bids.delete(request.params.id, currentUser(request).id),
  );

  app.get(
    '/api/bidding/deal/:dealId',
    {
      ...guarded,
      schema: {
        tags: bidTags,
        security,
        description: 'The dealers of the deal see every bid; anyone else only their own.',
        params: dealIdParamSchema,
        response: { 200: z.array(bidSchema), ...errors },
      },
    },
    async (request) => bids.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.put(
    '/api/bid-management/select-bid/:dealId/:bidId',
    {
      ...guarded,
      schema: {
        tags: bidTags,
        security,
        description:
          "Toggles the caller's selection; the same bid selected by both dealers finalizes the deal.",
        params: z.object({
          dealId: idParamSchema.shape.id,
          bidId: idParamSchema.shape.id,
        }),
        response: { 200: dealSchema, ...errors },
      },
    },
    async (request) => bids.select(request.params.dealId, request.params.bidId, currentUser(request).id),
  );
};
