import { errorBodySchema } from '../../contract/errors';

/** The refusals a signed-in call on a deal can answer with, for its route schema and /api/docs. */
export const dealCallErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
