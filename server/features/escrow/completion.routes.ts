import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { completionResponseSchema } from '../../../contract/escrow';
import { dealIdParamSchema } from '../../../contract/fields';
import { currentUser, routeDefaults } from '../../lib/route-guard';

/** Spec §7 lists this call under Progress; it is served here because completing a deal releases its escrow. */
export const completionRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['progress'], signedIn: true });
  const { completion } = app.services;

  app.put(
    '/api/progress/deal/:dealId/complete',
    {
      schema: {
        description:
          "A dealer marks the deal finished (escrow locked, no open dispute). The second dealer's mark completes the deal and releases the escrow to the dealmaker. Marking again is harmless.",
        params: dealIdParamSchema,
        response: { 200: completionResponseSchema },
      },
    },
    async (request) => completion.markFinished(request.params.dealId, currentUser(request).id),
  );
};
