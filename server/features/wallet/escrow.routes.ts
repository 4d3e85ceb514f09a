import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dealIdParamSchema } from '../../../contract/deals';
import {
  escrowActionResponseSchema,
  escrowStatusResponseSchema,
  idempotentHeadersSchema,
} from '../../../contract/wallet';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';
import { idempotencyOf, sendOutcome } from './idempotency';

const errors = dealCallErrors;
const guarded = signedIn;
const security = bearerSecurity;
const tags = ['escrow'];

export const escrowRoutes: FastifyPluginAsyncZod = async (app) => {
  const { escrow } = app.services;

  app.get(
    '/api/wallet/escrow/:dealId',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description: "The deal's escrow (it exists once the deal has a dealmaker), for its participants.",
        params: dealIdParamSchema,
        response: { 200: escrowStatusResponseSchema, ...errors },
      },
    },
    async (request) => escrow.status(request.params.dealId, currentUser(request).id),
  );

  app.post(
    '/api/wallet/escrow/:dealId/lock',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description:
          "Pays the caller's half (creator: ceil(budget/2), counterpart: the rest) from their wallet; both halves paid lock the escrow. Accepts an Idempotency-Key header.",
        params: dealIdParamSchema,
        headers: idempotentHeadersSchema,
        response: { 200: escrowActionResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await escrow.pay(request.params.dealId, currentUser(request).id, idempotencyOf(request)),
      ),
  );

  app.post(
    '/api/wallet/escrow/:dealId/refund',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description:
          "Returns the caller's paid half to their wallet while the escrow is not locked. Accepts an Idempotency-Key header.",
        params: dealIdParamSchema,
        headers: idempotentHeadersSchema,
        response: { 200: escrowActionResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await escrow.refund(request.params.dealId, currentUser(request).id, idempotencyOf(request)),
      ),
  );
};
