import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginRequestSchema,
  loginResponseSchema,
  meResponseSchema,
  messageResponseSchema,
  registerRequestSchema,
  resetPasswordSchema,
  resetRequestResponseSchema,
  resetRequestSchema,
} from '../../../contract/auth';
import { errorBodySchema } from '../../../contract/errors';
import { authenticate, currentUser, routeDefaults } from '../../lib/route-guard';

/** Wants the page rather than the call: a browser navigation asks for HTML first. */
const wantsPage = (accept: string | undefined) =>
  !!accept && accept.includes('text/html') && !accept.startsWith('application/json');

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['auth'], signedIn: false });
  const auth = app.services.auth;

  app.post(
    '/api/auth/register',
    { schema: { body: registerRequestSchema, response: { 201: messageResponseSchema } } },
    async (request, reply) => reply.status(201).send(await auth.register(request.body, request.ip)),
  );

  // One path, two things (DESIGN.md §1): the verification page for a browser, the verification call for JSON.
  app.get(
    '/api/auth/register/:key',
    {
      schema: {
        description:
          'Verifies an email. A browser navigation (Accept: text/html) gets the verification page.',
        params: z.object({ key: z.string().max(200) }),
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      if (wantsPage(request.headers.accept)) return reply.sendWebApp();
      return auth.verifyEmail(request.params.key);
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => auth.login(request.body, request.ip),
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: authenticate,
      schema: { security: [{ bearerAuth: [] }], response: { 200: meResponseSchema } },
    },
    async (request) => {
      const { id, username, email, isOperator } = currentUser(request);
      return { id, username, email, isOperator };
    },
  );

  app.post(
    '/api/auth/reset_password',
    { schema: { body: resetRequestSchema, response: { 200: resetRequestResponseSchema } } },
    async (request) => auth.requestPasswordReset(request.body.email, request.ip),
  );

  app.get(
    '/api/auth/reset_password/:username/:token',
    {
      schema: {
        description: 'The reset-password page (browser navigation).',
        params: z.object({ username: z.string(), token: z.string() }),
      },
    },
    async (_request, reply) => reply.sendWebApp(),
  );

  app.post(
    '/api/auth/reset_password/:username/:token',
    {
      schema: {
        params: z.object({ username: z.string().max(100), token: z.string().max(200) }),
        body: resetPasswordSchema,
        response: { 200: resetRequestResponseSchema },
      },
    },
    async (request) =>
      auth.resetPassword(request.params.username, request.params.token, request.body.newPassword),
  );
};
