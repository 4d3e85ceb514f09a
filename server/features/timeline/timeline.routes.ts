import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dealIdParamSchema } from '../../../contract/fields';
import { timelineQuerySchema, timelineSchema } from '../../../contract/timeline';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const timelineRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['timeline'], signedIn: true });
  const { timeline } = app.services;

  app.get(
    '/api/deals/:dealId/timeline',
    {
      schema: {
        description:
          "The deal's chat messages and system entries (every state change) in one list, newest first; older pages with `before`; with `after`, the entries after that id, oldest first (catching up after a reconnection). Participants only.",
        params: dealIdParamSchema,
        querystring: timelineQuerySchema,
        response: { 200: timelineSchema },
      },
    },
    async (request) => ({
      items: await timeline.page(request.params.dealId, currentUser(request).id, request.query),
    }),
  );
};
