import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dealIdParamSchema, decimalId, idParamSchema } from '../../../contract/fields';
import { idempotentHeadersSchema } from '../../../contract/idempotency';
import {
  milestoneActionResponseSchema,
  milestonePlanSchema,
  milestonesResponseSchema,
  proposePlanSchema,
  submitMilestoneSchema,
} from '../../../contract/milestones';
import { idempotencyOf, sendOutcome } from '../../lib/idempotency';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

const planParamsSchema = z.object({ dealId: decimalId(), planId: decimalId() });

/** Staged escrow (contract/milestones.ts): the plan, each milestone's money, delivery and release. */
export const milestonesRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['milestones'], signedIn: true });
  const { milestones } = app.services;

  app.get(
    '/api/deals/:dealId/milestones',
    {
      schema: {
        description:
          "The deal's milestones (one holding the whole budget until a plan is agreed) and its plan proposals, for its participants.",
        params: dealIdParamSchema,
        response: { 200: milestonesResponseSchema },
      },
    },
    async (request) => milestones.list(request.params.dealId, currentUser(request).id),
  );

  app.post(
    '/api/deals/:dealId/milestone-plans',
    {
      schema: {
        description:
          'Proposes a plan of 1–20 milestones adding up to the budget, once the deal has its dealmaker and before any escrow money; the proposer accepts it by proposing.',
        params: dealIdParamSchema,
        body: proposePlanSchema,
        response: { 201: milestonePlanSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await milestones.proposePlan(request.params.dealId, currentUser(request).id, request.body)),
  );

  app.post(
    '/api/deals/:dealId/milestone-plans/:planId/accept',
    {
      schema: {
        description: 'Accepts the open plan; with all three participants it becomes the deal’s milestones.',
        params: planParamsSchema,
        response: { 200: milestonePlanSchema },
      },
    },
    async (request) =>
      milestones.acceptPlan(request.params.dealId, request.params.planId, currentUser(request).id),
  );

  app.post(
    '/api/deals/:dealId/milestone-plans/:planId/withdraw',
    {
      schema: {
        description: 'Its proposer withdraws the open plan.',
        params: planParamsSchema,
        response: { 200: milestonePlanSchema },
      },
    },
    async (request) =>
      milestones.withdrawPlan(request.params.dealId, request.params.planId, currentUser(request).id),
  );

  app.post(
    '/api/milestones/:id/pay',
    {
      schema: {
        description:
          "Pays the caller's share of the milestone from their wallet (every earlier milestone must be funded). Accepts an Idempotency-Key header; with a second factor on, one must have been given in the last 10 minutes.",
        params: idParamSchema,
        headers: idempotentHeadersSchema,
        response: { 200: milestoneActionResponseSchema },
      },
      preHandler: requireRecentFactor,
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await milestones.pay(request.params.id, currentUser(request).id, idempotencyOf(request)),
      ),
  );

  app.post(
    '/api/milestones/:id/refund',
    {
      schema: {
        description:
          "Returns the caller's share of the milestone while the other share is unpaid. Accepts an Idempotency-Key header.",
        params: idParamSchema,
        headers: idempotentHeadersSchema,
        response: { 200: milestoneActionResponseSchema },
      },
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await milestones.refund(request.params.id, currentUser(request).id, idempotencyOf(request)),
      ),
  );

  app.post(
    '/api/milestones/:id/submit',
    {
      schema: {
        description:
          'The dealmaker says the funded milestone is delivered; it is released when both dealers approve it, or by itself at autoReleaseAt.',
        params: idParamSchema,
        body: submitMilestoneSchema,
        response: { 200: milestoneActionResponseSchema },
      },
    },
    async (request) => milestones.submit(request.params.id, currentUser(request).id, request.body.note),
  );

  app.post(
    '/api/milestones/:id/approve',
    {
      schema: {
        description:
          'A dealer approves the submitted milestone; the second approval releases it to the dealmaker.',
        params: idParamSchema,
        response: { 200: milestoneActionResponseSchema },
      },
    },
    async (request) => milestones.approve(request.params.id, currentUser(request).id),
  );
};
