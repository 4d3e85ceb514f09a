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
import { authenticate, bearerSecurity, currentUser } from './auth.guard';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema };
const tags = ['auth'];

/** Wants the page rather than the call: a browser navigation asks for HTML first. */
const wantsPage = (accept: string | undefined) =>
  !!accept && accept.includes('text/html') && !accept.startsWith('application/json');

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = app.services.auth;

  app.post(
    '/api/auth/register',
    { schema: { tags, body: registerRequestSchema, response: { 201: messageResponseSchema, ...errors } } },
    async (request, reply) => reply.status(201).send(await auth.register(request.body)),
  );

  // One path, two things (DESIGN.md §1): the verification page for a browser, the verification call for JSON.
  app.get(
    '/api/auth/register/:key',
    {
      schema: {
        tags,
        description:
          'Verifies an email. A browser navigation (Accept: text/html) gets the verification page.',
        params: z.object({ key: z.string().max(200) }),
        response: { 200: messageResponseSchema, ...errors },
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
        tags,
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errors, 429: errorBodySchema },
      },
    },
    async (request) => auth.login(request.body, request.ip),
  );

  app.get(
    '/api/auth/me',
    {
      preHandler: authenticate,
      schema: { tags, security: bearerSecurity, response: { 200: meResponseSchema, ...errors } },
    },
    async (request) => {
      const { id, username, email } = currentUser(request);
      return { id, username, email };
    },
  );

  app.post(
    '/api/auth/reset_password',
    { schema: { tags, body: resetRequestSchema, response: { 200: resetRequestResponseSchema, ...errors } } },
    async (request) => auth.requestPasswordReset(request.body.email),
  );

  app.get(
    '/api/auth/reset_password/:username/:token',
    {
      schema: {
        tags,
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
        tags,
        params: z.object({ username: z.string().max(100), token: z.string().max(200) }),
        body: resetPasswordSchema,
        response: { 200: resetRequestResponseSchema, ...errors },
      },
    },
    async (request) =>
      auth.resetPassword(request.params.username, request.params.token, request.body.newPassword),
  );
};
