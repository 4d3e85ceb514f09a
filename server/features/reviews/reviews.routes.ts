import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dealIdParamSchema } from '../../../contract/fields';
import {
  createReviewSchema,
  reviewableSchema,
  reviewSchema,
  userReviewsSchema,
} from '../../../contract/reviews';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const reviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['reviews'], signedIn: true });
  const reviews = app.services.reviews;

  app.post(
    '/api/reviews',
    {
      schema: { body: createReviewSchema, response: { 201: reviewSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await reviews.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/api/reviews/user/:username',
    {
      schema: {
        params: z.object({ username: z.string().max(100) }),
        response: { 200: userReviewsSchema },
      },
    },
    async (request) => reviews.forUser(request.params.username),
  );

  app.get(
    '/api/reviews/deal/:dealId/reviewable',
    {
      schema: { params: dealIdParamSchema, response: { 200: reviewableSchema } },
    },
    async (request) => reviews.reviewable(request.params.dealId, currentUser(request).id),
  );
};
