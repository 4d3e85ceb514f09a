import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dealIdParamSchema } from '../../../contract/deals';
import { completionResponseSchema } from '../../../contract/wallet';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;

/** Spec §7 lists this call under Progress; it is served here because completing a deal releases its escrow. */
export const completionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { completion } = app.services;

  app.put(
    '/api/progress/deal/:dealId/complete',
    {
      ...signedIn,
      schema: {
        tags: ['progress'],
        security: bearerSecurity,
        description:
          "A dealer marks the deal finished (escrow locked, no open dispute). The second dealer's mark completes the deal and releases the escrow to the dealmaker. Marking again is harmless.",
        params: dealIdParamSchema,
        response: { 200: completionResponseSchema, ...errors },
      },
    },
    async (request) => completion.markFinished(request.params.dealId, currentUser(request).id),
  );
};
