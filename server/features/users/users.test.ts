import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
/** Signed up in this order, so their ids grow in this order. */
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let dave: SignedUpUser;
let davey: SignedUpUser;
const unverified = {
  username: 'alice_unverified',
  email: 'alice_unverified@example.test',
  password: 'correct horse battery',
  full_name: 'Alice Unverified',
};

/** Every user response is checked for secrets on its raw text. */
const secrets = /password|hash|argon|verification|token|secret/i;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUp(server, { username: 'Alice_Smith', full_name: 'Alice Wonder' });
  bob = await signUp(server, { username: 'bob.jones', full_name: 'Robert ALICE Jones' });
  carol = await signUp(server, { username: 'carol50', full_name: 'Carol 50% Off' });
  dave = await signUp(server, { username: 'dave_x', full_name: 'Dave Under' });
  davey = await signUp(server, { username: 'davexy', full_name: 'David X Y' });
  const registered = await server.post('/api/auth/register', { body: unverified });
  expect(registered.status).toBe(201);
});
afterAll(() => server.close());

async function get(path: string, token: string | null = alice.token) {
  const response = await server.get(path, token ? { token } : {});
  expect(JSON.stringify(response.body)).not.toMatch(secrets);
  return response;
}

const usernames = (list: { username: string }[]) => list.map((user) => user.username);
const newestFirst = () => [davey, dave, carol, bob, alice].map((user) => user.username);
const userNotFound = { message: 'User not found', code: 'NOT_FOUND' };

describe('GET /api/auth/users', () => {
  it('lists verified users only, newest first, in their public shape', async () => {
    const response = await get('/api/auth/users');
    expect(response.status).toBe(200);
    expect(usernames(response.body)).toEqual(newestFirst());
    const first = response.body.find((user: { username: string }) => user.username === 'Alice_Smith');
    expect(first).toEqual({
      id: alice.user.id,
      username: 'Alice_Smith',
      email: alice.email,
      full_name: 'Alice Wonder',
      createdAt: alice.user.createdAt,
      updatedAt: expect.any(String),
      profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
    });
  });

  it('pages with limit and the before cursor', async () => {
    const first = await get('/api/auth/users?limit=2');
    expect(first.status).toBe(200);
    expect(usernames(first.body)).toEqual(newestFirst().slice(0, 2));

    const second = await get(`/api/auth/users?limit=2&before=${first.body.at(-1).id}`);
    expect(usernames(second.body)).toEqual(newestFirst().slice(2, 4));

    const third = await get(`/api/auth/users?limit=2&before=${second.body.at(-1).id}`);
    expect(usernames(third.body)).toEqual(newestFirst().slice(4));

    const past = await get(`/api/auth/users?before=${alice.user.id}`);
    expect(past.body).toEqual([]);
  });

  it('refuses a bad limit or cursor', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'before=0',
      'before=-3',
      'before=x',
    ]) {
      const response = await get(`/api/auth/users?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
    }
    expect((await get('/api/auth/users?limit=100')).status).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    const response = await get('/api/auth/users', null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/auth/users/search', () => {
  const search = async (q: string) => {
    const response = await get(`/api/auth/users/search?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(200);
    return usernames(response.body);
  };

  it('matches username or full name without regard to letter case', async () => {
    expect(await search('alice')).toEqual(['bob.jones', 'Alice_Smith']);
    expect(await search('ALICE')).toEqual(['bob.jones', 'Alice_Smith']);
    expect(await search('jOnEs')).toEqual(['bob.jones']);
    expect(await search('wonder')).toEqual(['Alice_Smith']);
    expect(await search('  carol  ')).toEqual(['carol50']);
    expect(await search('nobody matches this')).toEqual([]);
  });

  it('takes % and _ literally', async () => {
    expect(await search('%')).toEqual(['carol50']);
    expect(await search('50%')).toEqual(['carol50']);
    expect(await search('_')).toEqual(['dave_x', 'Alice_Smith']);
    expect(await search('dave_')).toEqual(['dave_x']);
    expect(await search('d_v')).toEqual([]);
    expect(await search('\\')).toEqual([]);
  });

  it('lists everyone for a blank or missing query', async () => {
    expect(await search('')).toEqual(newestFirst());
    expect(await search('   ')).toEqual(newestFirst());
    const none = await get('/api/auth/users/search');
    expect(none.status).toBe(200);
    expect(usernames(none.body)).toEqual(newestFirst());
  });

  it('refuses a query longer than 100 characters', async () => {
    const response = await get(`/api/auth/users/search?q=${'a'.repeat(101)}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });

  it('needs a signed-in caller', async () => {
    const response = await get('/api/auth/users/search?q=alice', null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/auth/users/{username}', () => {
  it('answers the user, in any letter case, without the email a stranger may not see', async () => {
    for (const name of ['bob.jones', 'BOB.JONES', 'Bob.Jones']) {
      const response = await get(`/api/auth/users/${name}`);
      expect(response.status).toBe(200);
      // Alice shares no deal with Bob, and Bob's email is for his deal partners (the default).
      expect(response.body).not.toHaveProperty('email');
      expect(response.body).toEqual({
        id: bob.user.id,
        username: 'bob.jones',
        full_name: 'Robert ALICE Jones',
        createdAt: bob.user.createdAt,
        updatedAt: expect.any(String),
        profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
      });
    }
  });

  it('answers 404 for an unknown or unverified user', async () => {
    for (const name of ['nobody_here', unverified.username, 'ALICE_UNVERIFIED', '%25', 'a%20b']) {
      const response = await get(`/api/auth/users/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.body).toEqual(userNotFound);
    }
  });

  it('shows the profile details the user filled in, the private ones only as the user allows', async () => {
    const updated = await server.post('/api/user-profile', {
      token: carol.token,
      body: {
        full_name: 'Carol 50% Off',
        date_of_birth: '1990-04-01',
        address: 'Main St 1',
        occupation: 'Broker',
      },
    });
    expect(updated.status).toBe(200);
    // Dave shares no deal with Carol: her date of birth and address are for her deal partners (the default).
    const hidden = await get('/api/auth/users/carol50', dave.token);
    expect(hidden.status).toBe(200);
    expect(hidden.body.profile).toEqual({
      profile_picture: null,
      date_of_birth: null,
      address: null,
      occupation: 'Broker',
    });

    const shown = await server.put('/api/user-profile/privacy', {
      token: carol.token,
      body: { dateOfBirth: 'everyone', address: 'everyone' },
    });
    expect(shown.status).toBe(200);
    const response = await get('/api/auth/users/carol50', dave.token);
    expect(response.status).toBe(200);
    expect(response.body.profile).toEqual({
      profile_picture: null,
      date_of_birth: '1990-04-01',
      address: 'Main St 1',
      occupation: 'Broker',
    });
  });

  it('keeps the name "search" from being registered, since /api/auth/users/search is the search', async () => {
    for (const username of ['search', 'Search', 'SEARCH']) {
      const response = await server.post('/api/auth/register', {
        body: {
          username,
          email: `${username}-x@example.test`,
          password: 'correct horse battery',
          full_name: 'S',
        },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: 'Username is already taken.', code: 'CONFLICT' });
    }
  });

  it('needs a signed-in caller', async () => {
    const response = await get('/api/auth/users/bob.jones', null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/auth/public-info', () => {
  it('lists the users matching the keyword, never the caller', async () => {
    const all = await get('/api/auth/public-info', alice.token);
    expect(all.status).toBe(200);
    expect(usernames(all.body)).toEqual(newestFirst().filter((name) => name !== 'Alice_Smith'));

    const alices = await get('/api/auth/public-info?keyword=alice', alice.token);
    expect(usernames(alices.body)).toEqual(['bob.jones']);
    const fromBob = await get('/api/auth/public-info?keyword=alice', bob.token);
    expect(usernames(fromBob.body)).toEqual(['Alice_Smith']);

    const daves = await get('/api/auth/public-info?keyword=DAVE', davey.token);
    expect(usernames(daves.body)).toEqual(['dave_x']);
  });

  it('ignores a deal that does not exist', async () => {
    const response = await get('/api/auth/public-info?keyword=dave&dealId=999999', alice.token);
    expect(response.status).toBe(200);
    expect(usernames(response.body)).toEqual(['davexy', 'dave_x']);
  });

  it('refuses a malformed dealId', async () => {
    for (const dealId of ['abc', '0', '-1']) {
      const response = await get(`/api/auth/public-info?dealId=${dealId}`);
      expect(response.status, dealId).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('needs a signed-in caller', async () => {
    const response = await get('/api/auth/public-info?keyword=a', null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});
