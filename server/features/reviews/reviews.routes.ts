import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createReviewSchema,
  reviewableSchema,
  reviewSchema,
  userReviewsSchema,
} from '../../../contract/collaboration';
import { dealIdParamSchema } from '../../../contract/deals';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';

const errors = dealCallErrors;
const tags = ['reviews'];
const security = bearerSecurity;
const guarded = signedIn;

export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const reviews = app.services.reviews;

  app.post(
    '/api/reviews',
    {
      ...guarded,
      schema: { tags, security, body: createReviewSchema, response: { 201: reviewSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await reviews.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/reviews/user/:username',
    {
      ...guarded,
      schema: {
        tags,
        security,
        params: z.object({ username: z.string().max(100) }),
        response: { 200: userReviewsSchema, ...errors },
      },
    },
    async (request) => reviews.forUser(request.params.username),
  );

  app.get(
    '/api/reviews/deal/:dealId/reviewable',
    {
      ...guarded,
      schema: { tags, security, params: dealIdParamSchema, response: { 200: reviewableSchema, ...errors } },
    },
    async (request) => reviews.reviewable(request.params.dealId, currentUser(request).id),
  );
};
