import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../../contract/auth';
import { errorBodySchema } from '../../../contract/errors';
import { idParamSchema } from '../../../contract/fields';
import {
  emailChangeSchema,
  passkeyListSchema,
  passkeyRegisteredSchema,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  passkeySchema,
  passwordChangeSchema,
  recoveryCodesSchema,
  securityStatusSchema,
  sessionIdParamSchema,
  sessionListSchema,
  sessionsEndedSchema,
  stepUpRequestSchema,
  stepUpResponseSchema,
  totpConfirmSchema,
  totpDisableSchema,
  totpSetupSchema,
  webauthnOptionsSchema,
} from '../../../contract/security';
import { currentUser, routeDefaults } from '../../lib/route-guard';

/** A signed-in user's own protections: second factors, passkeys, sessions, step-up, password and email. */
export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['account security'], signedIn: true });
  const security = app.services.accountSecurity;
  const limited = { 429: errorBodySchema };
  /** The signed-in user with the full name passkeys show. */
  const userWithName = async (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    const account = await app.services.users.getById(user.id);
    return { ...user, fullName: account.fullName };
  };

  app.get(
    '/api/auth/2fa',
    {
      schema: {
        description:
          'What protects the account, and until when this session may move money without a step-up.',
        response: { 200: securityStatusSchema },
      },
    },
    async (request) => security.status(currentUser(request)),
  );

  app.post(
    '/api/auth/2fa/totp/setup',
    {
      schema: {
        description:
          'A new authenticator-app secret (with its otpauth URL and QR code), not active until confirmed.',
        response: { 200: totpSetupSchema },
      },
    },
    async (request) => security.setUpTotp(currentUser(request)),
  );

  app.post(
    '/api/auth/2fa/totp/confirm',
    {
      schema: {
        description:
          'Turns the authenticator app on with a code from it; answers 10 single-use recovery codes, shown once.',
        body: totpConfirmSchema,
        response: { 200: recoveryCodesSchema, ...limited },
      },
    },
    async (request) => security.confirmTotp(currentUser(request), request.body.code),
  );

  app.post(
    '/api/auth/2fa/totp/disable',
    {
      schema: {
        description: 'Turns the authenticator app off; needs the password and a code (or a recovery code).',
        body: totpDisableSchema,
        response: { 200: messageResponseSchema, ...limited },
      },
    },
    async (request) => security.disableTotp(currentUser(request), request.body),
  );

  app.post(
    '/api/auth/2fa/recovery-codes',
    {
      schema: {
        description: 'Ten new recovery codes in place of the old ones (needs a recent second factor).',
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request) => security.regenerateRecoveryCodes(currentUser(request)),
  );

  app.post(
    '/api/auth/step-up',
    {
      schema: {
        description:
          'Confirms it is you — a code, a recovery code, a passkey assertion, or the password of an account without a second factor — so this session may move money and change the account for the next 10 minutes.',
        body: stepUpRequestSchema,
        response: { 200: stepUpResponseSchema, ...limited },
      },
    },
    async (request) => security.stepUp(currentUser(request), request.body),
  );

  app.post(
    '/api/auth/step-up/passkey-options',
    {
      schema: {
        description: 'Options for navigator.credentials.get() to confirm it is you with a passkey.',
        response: { 200: webauthnOptionsSchema },
      },
    },
    async (request) =>
      (await security.stepUpPasskeyOptions(currentUser(request))) as unknown as Record<string, unknown>,
  );

  app.post(
    '/api/auth/passkeys/register/options',
    {
      schema: {
        description: 'Options for navigator.credentials.create() to add a passkey.',
        response: { 200: webauthnOptionsSchema },
      },
    },
    async (request) =>
      (await security.passkeyRegistrationOptions(await userWithName(request))) as unknown as Record<
        string,
        unknown
      >,
  );

  app.post(
    '/api/auth/passkeys/register/verify',
    {
      schema: {
        description:
          'Adds the passkey the browser made from the options; the account’s first second factor comes with recovery codes.',
        body: passkeyRegisterSchema,
        response: { 201: passkeyRegisteredSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await security.registerPasskey(
            currentUser(request),
            request.body,
            request.headers['user-agent'] ?? null,
          ),
        ),
  );

  app.get(
    '/api/auth/passkeys',
    { schema: { description: 'The passkeys of the account.', response: { 200: passkeyListSchema } } },
    async (request) => security.listPasskeys(currentUser(request)),
  );

  app.patch(
    '/api/auth/passkeys/:id',
    {
      schema: {
        description: 'Renames a passkey.',
        params: idParamSchema,
        body: passkeyRenameSchema,
        response: { 200: passkeySchema },
      },
    },
    async (request) => security.renamePasskey(currentUser(request), request.params.id, request.body.name),
  );

  app.delete(
    '/api/auth/passkeys/:id',
    {
      schema: {
        description: 'Removes a passkey (needs a recent second factor).',
        params: idParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => security.removePasskey(currentUser(request), request.params.id),
  );

  app.get(
    '/api/auth/sessions',
    {
      schema: {
        description: 'The open sessions of the account, newest first; `current` marks this one.',
        response: { 200: sessionListSchema },
      },
    },
    async (request) => security.listSessions(currentUser(request)),
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      schema: {
        description:
          'Ends a session: its token is refused within a second on every instance, and its sockets close.',
        params: sessionIdParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => security.endSession(currentUser(request), request.params.id),
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    {
      schema: { description: 'Ends every session but this one.', response: { 200: sessionsEndedSchema } },
    },
    async (request) => security.endOtherSessions(currentUser(request)),
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        description:
          'Changes the password, given the current one (needs a recent second factor); every other session ends.',
        body: passwordChangeSchema,
        response: { 200: messageResponseSchema, ...limited },
      },
    },
    async (request) => security.changePassword(currentUser(request), request.body),
  );

  app.post(
    '/api/auth/email',
    {
      schema: {
        description:
          'Starts a change of email: a link goes to the new address, a notice to the current one (needs the password and a recent second factor).',
        body: emailChangeSchema,
        response: { 200: messageResponseSchema, ...limited },
      },
    },
    async (request) => security.requestEmailChange(await userWithName(request), request.body),
  );
};
