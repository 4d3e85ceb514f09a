/** Error bodies many routes answer with, exactly as the server words them. */
export const signInFirst = { message: 'Please sign in to continue.', code: 'UNAUTHENTICATED' };
export const dealNotFound = { message: 'Deal not found.', code: 'NOT_FOUND' };
export const onlyParticipants = {
  message: 'Only the participants of this deal can do this.',
  code: 'FORBIDDEN',
};

/** A 400 for one field, whose message is also the answer's message. */
export const invalid = (field: string, message: string) => ({
  message,
  code: 'VALIDATION_FAILED',
  fieldErrors: { [field]: [message] },
});

/** The largest id PostgreSQL's integer holds: valid on the wire, never a real row. */
export const unknownId = 2_147_483_647;
