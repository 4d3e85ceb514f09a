import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import {
  publicInfoQuerySchema,
  userListSchema,
  userSchema,
  userSearchQuerySchema,
} from '../../../contract/users';
import { authenticate, bearerSecurity, currentUser } from '../auth/auth.guard';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const tags = ['users'];
const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: z.coerce.number().int().positive().optional(),
});

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = app.services.users;
  const guarded = { preHandler: authenticate };

  app.get(
    '/api/auth/users',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        querystring: pageQuery,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request) => users.list({ limit: request.query.limit, beforeId: request.query.before }),
  );

  app.get(
    '/api/auth/users/search',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        querystring: userSearchQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request) => users.list({ keyword: request.query.q }),
  );

  app.get(
    '/api/auth/users/:username',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        params: z.object({ username: z.string().max(100) }),
        response: { 200: userSchema, ...errors },
      },
    },
    async (request) => users.getByUsername(request.params.username),
  );

  app.get(
    '/api/auth/public-info',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        description:
          'Users to request as dealmaker: never the caller, nor (with dealId) the deal’s dealers or dealmaker.',
        querystring: publicInfoQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request) =>
      app.services.users.candidatesForRequest(
        currentUser(request).id,
        request.query.keyword,
        request.query.dealId,
      ),
  );
};
