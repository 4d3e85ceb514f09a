import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createDisputeSchema, disputeSchema, resolveDisputeSchema } from '../../../contract/disputes';
import { errorBodySchema } from '../../../contract/errors';
import { dealIdParamSchema, idParamSchema } from '../../../contract/fields';
import { proposalParamsSchema, proposalSchema, proposeSettlementSchema } from '../../../contract/settlements';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

export const disputesRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['disputes'], signedIn: true });
  const { disputes, settlements, rateLimits } = app.services;

  app.post(
    '/api/disputes',
    {
      schema: { body: createDisputeSchema, response: { 201: disputeSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await disputes.raise(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/disputes/deal/:dealId',
    {
      schema: {
        params: dealIdParamSchema,
        response: { 200: z.array(disputeSchema) },
      },
    },
    async (request) => disputes.listOfDeal(request.params.dealId, currentUser(request).id),
  );

  app.put(
    '/api/disputes/:id/resolve',
    {
      schema: {
        params: idParamSchema,
        body: resolveDisputeSchema,
        response: { 200: disputeSchema },
      },
    },
    async (request) => disputes.resolve(request.params.id, currentUser(request).id, request.body.resolution),
  );

  app.post(
    '/api/disputes/:id/escalate',
    {
      schema: {
        description: "A dealer sends the open dispute to the operators' queue now (its status stays open).",
        params: idParamSchema,
        response: { 200: disputeSchema },
      },
    },
    async (request) => disputes.escalate(request.params.id, currentUser(request).id),
  );

  app.post(
    '/api/disputes/:id/proposals',
    {
      // A proposal is its proposer's acceptance of how the escrow is paid out: confirmed like a withdrawal.
      preHandler: requireRecentFactor,
      schema: {
        description:
          'Proposes how much of the locked escrow goes to the dealmaker; the rest goes back to the dealers in proportion to what each paid. Supersedes the open proposal; the proposer has accepted it.',
        params: idParamSchema,
        body: proposeSettlementSchema,
        response: { 201: proposalSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id } = currentUser(request);
      // Counted before anything is written: each proposal notifies the other participants.
      await rateLimits.consume(['settlementProposalsPerUser', String(id)]);
      return reply
        .status(201)
        .send(await settlements.propose(request.params.id, id, request.body.toDealmaker));
    },
  );

  app.post(
    '/api/disputes/:id/proposals/:proposalId/accept',
    {
      preHandler: requireRecentFactor,
      schema: {
        description:
          'Accepts a proposal; when all three participants have accepted it, the escrow is paid out as it says and the deal is completed.',
        params: proposalParamsSchema,
        response: { 200: proposalSchema },
      },
    },
    async (request) =>
      settlements.accept(request.params.id, request.params.proposalId, currentUser(request).id),
  );

  app.post(
    '/api/disputes/:id/proposals/:proposalId/withdraw',
    {
      schema: {
        description: 'Its proposer takes an open proposal back.',
        params: proposalParamsSchema,
        response: { 200: proposalSchema },
      },
    },
    async (request) =>
      settlements.withdraw(request.params.id, request.params.proposalId, currentUser(request).id),
  );
};
