/** A signed-in session for unit tests: a token the web app can read, and the profile the server answers. */

/** A fetch answer with a JSON body. */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const base64url = (value: string) => btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A token with these claims (unsigned: the web app only reads it; the server is mocked). */
export const fakeToken = (claims: { id: number; username: string; email: string; exp?: number }) =>
  `${base64url('{"alg":"HS256"}')}.${base64url(
    JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims }),
  )}.sig`;

/** The user's token (valid for an hour) and their GET /api/user-profile answer. */
export function signedInUser(user: { id: number; username: string; full_name: string }) {
  const email = `${user.username}@example.com`;
  return {
    token: fakeToken({ id: user.id, username: user.username, email }),
    profile: {
      ...user,
      email,
      createdAt: '2025-03-04T10:00:00.000Z',
      updatedAt: '2025-03-04T10:00:00.000Z',
      profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
    },
  };
}
