import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { escrowActionResponseSchema, escrowStatusResponseSchema } from '../../../contract/escrow';
import { dealIdParamSchema } from '../../../contract/fields';
import { idempotentHeadersSchema } from '../../../contract/idempotency';
import { idempotencyOf, sendOutcome } from '../../lib/idempotency';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

export const escrowRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['escrow'], signedIn: true });
  const { escrow } = app.services;

  app.get(
    '/api/wallet/escrow/:dealId',
    {
      schema: {
        description: "The deal's escrow (it exists once the deal has a dealmaker), for its participants.",
        params: dealIdParamSchema,
        response: { 200: escrowStatusResponseSchema },
      },
    },
    async (request) => escrow.status(request.params.dealId, currentUser(request).id),
  );

  /** Paying and taking back a half: the same shape, an Idempotency-Key accepted. */
  const halfMovement = (description: string) => ({
    schema: {
      description: `${description} Accepts an Idempotency-Key header.`,
      params: dealIdParamSchema,
      headers: idempotentHeadersSchema,
      response: { 200: escrowActionResponseSchema },
    },
  });

  app.post(
    '/api/wallet/escrow/:dealId/lock',
    {
      ...halfMovement(
        "Pays the caller's half (creator: ceil(budget/2), counterpart: the rest) from their wallet; both halves paid lock the escrow. With a second factor on, one must have been given in the last 10 minutes (403 STEP_UP_REQUIRED).",
      ),
      // The money leaves the wallet towards a dealmaker: confirmed like a withdrawal.
      preHandler: requireRecentFactor,
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await escrow.pay(request.params.dealId, currentUser(request).id, idempotencyOf(request)),
      ),
  );

  app.post(
    '/api/wallet/escrow/:dealId/refund',
    halfMovement("Returns the caller's paid half to their wallet while the escrow is not locked."),
    async (request, reply) =>
      sendOutcome(
        reply,
        await escrow.refund(request.params.dealId, currentUser(request).id, idempotencyOf(request)),
      ),
  );
};
