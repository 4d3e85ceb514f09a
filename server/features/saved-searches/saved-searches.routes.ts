import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSavedSearchSchema,
  savedSearchSchema,
  updateSavedSearchSchema,
} from '../../../contract/discovery';
import { idParamSchema, messageResponseSchema } from '../../../contract/fields';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const savedSearchesRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['saved searches'], signedIn: true });
  const { savedSearches } = app.services;

  app.post(
    '/api/saved-searches',
    {
      schema: {
        description:
          'Saves a search of the deals list (at most 20); with alert on, new deals it finds are notified (and mailed when not connected).',
        body: createSavedSearchSchema,
        response: { 201: savedSearchSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await savedSearches.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/saved-searches',
    { schema: { response: { 200: z.array(savedSearchSchema) } } },
    async (request) => savedSearches.list(currentUser(request).id),
  );

  app.patch(
    '/api/saved-searches/:id',
    {
      schema: {
        description: 'Turns its alerts on or off.',
        params: idParamSchema,
        body: updateSavedSearchSchema,
        response: { 200: savedSearchSchema },
      },
    },
    async (request) => savedSearches.setAlert(request.params.id, currentUser(request).id, request.body.alert),
  );

  app.post(
    '/api/saved-searches/:id/seen',
    {
      schema: {
        description: 'Its owner opened it: its matches so far are no longer counted as new.',
        params: idParamSchema,
        response: { 200: savedSearchSchema },
      },
    },
    async (request) => savedSearches.seen(request.params.id, currentUser(request).id),
  );

  app.delete(
    '/api/saved-searches/:id',
    { schema: { params: idParamSchema, response: { 200: messageResponseSchema } } },
    async (request) => savedSearches.delete(request.params.id, currentUser(request).id),
  );
};
