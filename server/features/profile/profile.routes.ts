import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import {
  profileUpdateResponseSchema,
  profileUpdateSchema,
  successResponseSchema,
  uploadPictureResponseSchema,
  userSchema,
} from '../../../contract/users';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { authenticate, bearerSecurity, currentUser } from '../auth/auth.guard';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const tags = ['profile'];

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const profile = app.services.profile;
  const guarded = { preHandler: authenticate };

  app.get(
    '/api/user-profile',
    { ...guarded, schema: { tags, security: bearerSecurity, response: { 200: userSchema, ...errors } } },
    async (request) => profile.get(currentUser(request).id),
  );

  app.post(
    '/api/user-profile',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        body: profileUpdateSchema,
        response: { 200: profileUpdateResponseSchema, ...errors },
      },
    },
    async (request) => profile.update(currentUser(request).id, request.body),
  );

  app.post(
    '/api/user-profile/upload-picture',
    {
      ...guarded,
      schema: {
        tags,
        security: bearerSecurity,
        consumes: ['multipart/form-data'],
        description:
          'multipart/form-data with one file field `profilePicture` (JPEG, PNG, GIF or WebP, at most 5 MB).',
        response: { 200: uploadPictureResponseSchema, ...errors, 413: errorBodySchema, 415: errorBodySchema },
      },
    },
    async (request) => profile.replacePicture(currentUser(request).id, await readPicture(request)),
  );

  app.delete(
    '/api/user-profile/profile-picture',
    {
      ...guarded,
      schema: { tags, security: bearerSecurity, response: { 200: successResponseSchema, ...errors } },
    },
    async (request) => profile.removePicture(currentUser(request).id),
  );

  // Public and immutable: a new picture always gets a new URL.
  app.get(
    '/uploads/profile-pictures/:file',
    {
      schema: {
        tags,
        params: z.object({ file: z.string() }),
      },
    },
    async (request, reply) => {
      // A name that cannot be a picture is just a picture that is not there.
      const id = /^([A-Za-z0-9_-]{1,40})\.webp$/.exec(request.params.file)?.[1];
      if (!id) throw notFound('Picture not found.');
      const picture = await profile.picture(id);
      return reply
        .header('content-type', picture.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(Buffer.from(picture.bytes));
    },
  );
};

/** The bytes of the one `profilePicture` file of a multipart upload. */
async function readPicture(request: FastifyRequest): Promise<Buffer> {
  const missing = () =>
    badRequest('Please select an image file', { profilePicture: ['Please select an image file'] });
  try {
    const file = await request.file();
    if (file?.fieldname !== 'profilePicture') throw missing();
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError || (error as FastifyError).statusCode) throw error;
    // The multipart parser's own errors ("Boundary not found", "Unexpected end of form") carry no
    // status: they describe a malformed upload, not a server fault.
    throw badRequest('The upload could not be read. Please send it as multipart/form-data.');
  }
}
