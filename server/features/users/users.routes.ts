import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuerySchema } from '../../../contract/fields';
import { userListSchema, userSchema, userSearchQuerySchema } from '../../../contract/users';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['users'], signedIn: true });
  const users = app.services.users;

  app.get(
    '/api/auth/users',
    {
      schema: {
        querystring: pageQuerySchema,
        response: { 200: userListSchema },
      },
    },
    async (request) =>
      users.list({
        viewerId: currentUser(request).id,
        limit: request.query.limit,
        beforeId: request.query.before,
      }),
  );

  app.get(
    '/api/auth/users/search',
    {
      schema: {
        querystring: userSearchQuerySchema,
        response: { 200: userListSchema },
      },
    },
    async (request) => users.list({ viewerId: currentUser(request).id, keyword: request.query.q }),
  );

  app.get(
    '/api/auth/users/:username',
    {
      schema: {
        params: z.object({ username: z.string().max(100) }),
        response: { 200: userSchema },
      },
    },
    async (request) => users.getByUsername(request.params.username, currentUser(request).id),
  );
};
