import type { FastifyReply } from 'fastify';
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
import {
  emailConfirmSchema,
  passkeyLoginSchema,
  resendVerificationSchema,
  secondStepRequestSchema,
  twoFactorChallengeSchema,
  webauthnOptionsSchema,
} from '../../../contract/security';
import { authenticate, currentUser, routeDefaults } from '../../lib/route-guard';
import type { SignedIn } from './auth.service';
import { clientInfoOf, deviceCookie } from './device';

/** Wants the page rather than the call: a browser navigation asks for HTML first. */
const wantsPage = (accept: string | undefined) =>
  !!accept && accept.includes('text/html') && !accept.startsWith('application/json');

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['auth'], signedIn: false });
  const auth = app.services.auth;
  const secureCookies = app.config.publicUrl.startsWith('https:');

  /** The spec's sign-in answer; a browser without a device cookie gets one with it. */
  const answerSignedIn = (reply: FastifyReply, signedIn: SignedIn) => {
    if (signedIn.givenDeviceKey)
      reply.header('set-cookie', deviceCookie(signedIn.givenDeviceKey, secureCookies));
    return { token: signedIn.token, user: signedIn.user };
  };

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
        description:
          'Signs in with a password. An account with a second factor answers `{ twoFactorRequired, challenge, methods }` instead, without a token: finish with POST /api/auth/login/2fa.',
        body: loginRequestSchema,
        response: { 200: z.union([loginResponseSchema, twoFactorChallengeSchema]), 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const outcome = await auth.login(request.body, clientInfoOf(request));
      return 'twoFactorRequired' in outcome ? outcome : answerSignedIn(reply, outcome);
    },
  );

  app.post(
    '/api/auth/login/2fa',
    {
      schema: {
        description:
          'The second step of a sign-in: the challenge with a code from the authenticator app, a recovery code or a passkey assertion.',
        body: secondStepRequestSchema,
        response: { 200: loginResponseSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) =>
      answerSignedIn(reply, await auth.loginSecondStep(request.body, clientInfoOf(request))),
  );

  app.post(
    '/api/auth/passkeys/login/options',
    {
      schema: {
        description:
          'Options for navigator.credentials.get() to sign in with a passkey alone (no username). Limited per address: each is a stored challenge.',
        response: { 200: webauthnOptionsSchema, 429: errorBodySchema },
      },
    },
    async (request) => (await auth.passkeyLoginOptions(request.ip)) as unknown as Record<string, unknown>,
  );

  app.post(
    '/api/auth/passkeys/login/verify',
    {
      schema: {
        description: 'Signs in with the passkey assertion the browser made from the options.',
        body: passkeyLoginSchema,
        response: { 200: loginResponseSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) =>
      answerSignedIn(reply, await auth.passkeyLogin(request.body.response, clientInfoOf(request))),
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: authenticate,
      schema: {
        description: 'Signs out: ends this session on the server, so its token stops working everywhere.',
        security: [{ bearerAuth: [] }],
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => auth.logout(currentUser(request)),
  );

  app.post(
    '/api/auth/register/resend',
    {
      schema: {
        description:
          'Mails a new verification link to an unverified account with this email (the answer is the same either way).',
        body: resendVerificationSchema,
        response: { 200: messageResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => auth.resendVerification(request.body.email, request.ip),
  );

  app.post(
    '/api/auth/email/confirm',
    {
      schema: {
        description: 'Confirms a change of email with the token from the link mailed to the new address.',
        body: emailConfirmSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => app.services.accountSecurity.confirmEmailChange(request.body.token),
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: authenticate,
      schema: { security: [{ bearerAuth: [] }], response: { 200: meResponseSchema } },
    },
    async (request) => {
      const { id, username, email, isOperator, sessionId } = currentUser(request);
      const session = await app.services.sessions.state(sessionId);
      return { id, username, email, isOperator, secondFactor: session?.hasSecondFactor === true };
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
