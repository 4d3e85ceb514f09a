import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import {
  ownProfileSchema,
  privacySchema,
  privacyUpdateSchema,
  profileUpdateResponseSchema,
  profileUpdateSchema,
  successResponseSchema,
  uploadPictureResponseSchema,
} from '../../../contract/users';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['profile'], signedIn: true });
  const profile = app.services.profile;

  app.get('/api/user-profile', { schema: { response: { 200: ownProfileSchema } } }, async (request) =>
    profile.get(currentUser(request).id),
  );

  app.put(
    '/api/user-profile/privacy',
    {
      schema: {
        description:
          'Who sees your email, date of birth and address: `everyone`, `deal-partners` (the creator, ' +
          'counterpart and dealmaker of any deal you take part in) or `only-me`. Settings left out keep ' +
          'their value; answers all three.',
        body: privacyUpdateSchema,
        response: { 200: privacySchema },
      },
    },
    async (request) => profile.updatePrivacy(currentUser(request).id, request.body),
  );

  app.post(
    '/api/user-profile',
    {
      schema: {
        body: profileUpdateSchema,
        response: { 200: profileUpdateResponseSchema },
      },
    },
    async (request) => profile.update(currentUser(request).id, request.body),
  );

  app.post(
    '/api/user-profile/upload-picture',
    {
      schema: {
        consumes: ['multipart/form-data'],
        description:
          'multipart/form-data with one file field `profilePicture` (JPEG, PNG, GIF or WebP, at most 5 MB).',
        response: {
          200: uploadPictureResponseSchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      // Counted before the upload is read: decoding and re-encoding pictures is the costly part.
      await profile.countUpload(userId);
      return profile.replacePicture(userId, await readPicture(request));
    },
  );

  app.delete(
    '/api/user-profile/profile-picture',
    {
      schema: { response: { 200: successResponseSchema } },
    },
    async (request) => profile.removePicture(currentUser(request).id),
  );
};

/** Profile pictures are public: anyone may load them, signed in or not. */
export const profilePictureFilesRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['profile'], signedIn: false });
  const profile = app.services.profile;

  // Public and immutable: a new picture always gets a new URL.
  app.get(
    '/uploads/profile-pictures/:file',
    {
      schema: {
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
