import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { completionResponseSchema } from '../../../contract/escrow';
import { dealIdParamSchema } from '../../../contract/fields';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

/** Spec §7 lists this call under Progress; it is served here because completing a deal releases its escrow. */
export const completionRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['progress'], signedIn: true });
  const { completion } = app.services;

  app.put(
    '/api/progress/deal/:dealId/complete',
    {
      // The second mark releases the escrow to the dealmaker: confirmed like a withdrawal.
      preHandler: requireRecentFactor,
      schema: {
        description:
          "A dealer marks the deal finished (escrow locked, no open dispute). The second dealer's mark completes the deal and releases the escrow to the dealmaker. Marking again is harmless. With a second factor on, one must have been given in the last 10 minutes (403 STEP_UP_REQUIRED).",
        params: dealIdParamSchema,
        response: { 200: completionResponseSchema },
      },
    },
    async (request) => completion.markFinished(request.params.dealId, currentUser(request).id),
  );
};
