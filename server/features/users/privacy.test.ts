import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Privacy, Visibility } from '../../../contract/users';
import {
  assignDealmakerByRequest,
  createDeal,
  dealWithDealers,
  joinDeal,
  markCompletedInDb,
  placeBid,
  sendRequest,
} from '../../test/deal-fixtures';
import { signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

/**
 * Who sees a user's email, date of birth and address (DESIGN.md §5, Privacy): everyone, the people the
 * user shares a deal with (creator, joined counterpart, dealmaker; completed deals too), or the user
 * alone. Hidden means absent, on every route that shows a user to someone else.
 */

let server: TestServer;
/** Whose details are at stake. */
let owner: SignedUpUser;
/** The owner's deal partners, one per role they hold beside the owner. */
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let completedPartner: SignedUpUser;
/** People who are not the owner's deal partners. */
let stranger: SignedUpUser;
let bidder: SignedUpUser;
let requested: SignedUpUser;
let leaver: SignedUpUser;

const ownerDetails = { date_of_birth: '1985-06-15', address: 'Quokka Lane 7, Perth' };
const allSettings = (visibility: Visibility): Privacy => ({
  email: visibility,
  dateOfBirth: visibility,
  address: visibility,
});

beforeAll(async () => {
  server = await startTestServer();
  const signUpAs = (role: string) =>
    signUp(server, { username: `priv_${role}`, full_name: `Privacy ${role}` });
  [owner, creator, counterpart, dealmaker, completedPartner, stranger, bidder, requested, leaver] =
    await Promise.all([
      signUpAs('owner'),
      signUpAs('creator'),
      signUpAs('counterpart'),
      signUpAs('dealmaker'),
      signUpAs('completed'),
      signUpAs('stranger'),
      signUpAs('bidder'),
      signUpAs('requested'),
      signUpAs('leaver'),
    ]);
  const filled = await server.post('/api/user-profile', {
    token: owner.token,
    body: { full_name: owner.full_name, occupation: 'Broker', ...ownerDetails },
  });
  expect(filled.status).toBe(200);

  // The creator's deal, joined by the owner.
  await dealWithDealers(server, creator, owner);
  // The owner's deal, joined by the counterpart, with the dealmaker hired by request.
  const hired = await dealWithDealers(server, owner, counterpart);
  await assignDealmakerByRequest(server, owner, hired.id, dealmaker);
  // A completed deal still makes partners.
  const completed = await dealWithDealers(server, owner, completedPartner);
  await markCompletedInDb(server, completed.id);
  // Bidding on, being asked to broker, or having left one of the owner's deals makes no partner.
  const open = await createDeal(server, owner);
  await placeBid(server, bidder, open.id);
  await sendRequest(server, owner, open.id, requested);
  await joinDeal(server, leaver, open.id);
  const left = await server.put(`/api/deals/leave-deal-as-dealer/${open.id}`, { token: leaver.token });
  expect(left.status).toBe(200);
});
afterAll(() => server.close());

async function setPrivacy(user: SignedUpUser, change: Partial<Privacy>) {
  const response = await server.put('/api/user-profile/privacy', { token: user.token, body: change });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Privacy;
}

type Shown = {
  username: string;
  email?: string;
  profile: { date_of_birth: string | null; address: string | null };
};

/** The owner as the viewer gets them from each route that shows users to others. */
async function ownerAsSeenBy(viewer: SignedUpUser) {
  const token = viewer.token;
  const find = (list: Shown[]) => list.find((user) => user.username === owner.username);
  const profile = await server.get<Shown>(`/api/auth/users/${owner.username}`, { token });
  const directory = await server.get<Shown[]>('/api/auth/users?limit=100', { token });
  const search = await server.get<Shown[]>(`/api/auth/users/search?q=${owner.username}`, { token });
  const candidates = await server.get<Shown[]>(`/api/auth/public-info?keyword=${owner.username}`, { token });
  for (const response of [profile, directory, search]) expect(response.status).toBe(200);
  const seen: Record<string, Shown | undefined> = {
    profile: profile.body,
    directory: find(directory.body),
    search: find(search.body),
  };
  // The dealmaker candidates never list the caller.
  if (viewer !== owner) seen.candidates = find(candidates.body);
  return seen;
}

/** What a viewer sees of the three private details: the value, or absent. */
const details = (user: Shown | undefined) => ({
  email: user && 'email' in user ? user.email : 'absent',
  date_of_birth: user?.profile.date_of_birth ?? 'absent',
  address: user?.profile.address ?? 'absent',
});
const everything = () => ({ email: owner.email, ...ownerDetails });
const nothing = { email: 'absent', date_of_birth: 'absent', address: 'absent' };

async function expectSeen(viewer: SignedUpUser, expected: Record<string, string>) {
  const seen = await ownerAsSeenBy(viewer);
  for (const [route, user] of Object.entries(seen)) {
    expect(user, `${viewer.username} on ${route}`).toBeDefined();
    expect(details(user), `${viewer.username} on ${route}`).toEqual(expected);
    // Details that are not private stay.
    expect(user?.profile, route).toMatchObject({ occupation: 'Broker' });
  }
}

const partners = () => ({ creator, counterpart, dealmaker, completedPartner });
const nonPartners = () => ({ stranger, bidder, requested, leaver });

describe('who sees the email, date of birth and address', () => {
  it('by default: the user and their deal partners, no one else', async () => {
    expect((await server.get('/api/user-profile', { token: owner.token })).body.privacy).toEqual(
      allSettings('deal-partners'),
    );
    await expectSeen(owner, everything());
    for (const partner of Object.values(partners())) await expectSeen(partner, everything());
    for (const other of Object.values(nonPartners())) await expectSeen(other, nothing);
  });

  it('everyone: every signed-in member', async () => {
    await setPrivacy(owner, allSettings('everyone'));
    await expectSeen(owner, everything());
    for (const viewer of [...Object.values(partners()), ...Object.values(nonPartners())]) {
      await expectSeen(viewer, everything());
    }
  });

  it('only-me: the user alone, deal partners included in the no', async () => {
    await setPrivacy(owner, allSettings('only-me'));
    await expectSeen(owner, everything());
    for (const viewer of [...Object.values(partners()), ...Object.values(nonPartners())]) {
      await expectSeen(viewer, nothing);
    }
  });

  it('each detail by its own setting', async () => {
    await setPrivacy(owner, { email: 'everyone', dateOfBirth: 'only-me', address: 'deal-partners' });
    await expectSeen(owner, everything());
    await expectSeen(dealmaker, {
      email: owner.email,
      date_of_birth: 'absent',
      address: ownerDetails.address,
    });
    await expectSeen(stranger, { email: owner.email, date_of_birth: 'absent', address: 'absent' });
    await setPrivacy(owner, allSettings('deal-partners'));
  });

  it('works out partnership per user within one page of the directory', async () => {
    // The creator shares a deal with the owner only: on the same page the owner's details show, and
    // the stranger's (also deal-partners by default) do not.
    const page = await server.get<Shown[]>('/api/auth/users?limit=100', { token: creator.token });
    const byName = (user: SignedUpUser) => page.body.find((shown) => shown.username === user.username);
    expect(details(byName(owner))).toEqual(everything());
    expect(byName(stranger)).not.toHaveProperty('email');
    expect(details(byName(creator)).email).toBe(creator.email);
    expect(
      page.body
        .filter((shown) => 'email' in shown)
        .map((shown) => shown.username)
        .sort(),
    ).toEqual([creator.username, owner.username].sort());
  });

  it('the sign-in answer and the own profile stay complete whatever the settings', async () => {
    await setPrivacy(owner, allSettings('only-me'));
    const login = await server.post('/api/auth/login', {
      body: { username: owner.username, password: owner.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: owner.email, profile: ownerDetails });
    const own = await server.get('/api/user-profile', { token: owner.token });
    expect(own.body).toMatchObject({
      email: owner.email,
      profile: ownerDetails,
      privacy: allSettings('only-me'),
    });
    await setPrivacy(owner, allSettings('deal-partners'));
  });
});

describe('searching users', () => {
  const search = async (viewer: SignedUpUser, q: string) => {
    const response = await server.get<Shown[]>(`/api/auth/users/search?q=${encodeURIComponent(q)}`, {
      token: viewer.token,
    });
    expect(response.status).toBe(200);
    return response.body.map((user) => user.username);
  };
  const candidates = async (viewer: SignedUpUser, keyword: string) => {
    const response = await server.get<Shown[]>(
      `/api/auth/public-info?keyword=${encodeURIComponent(keyword)}`,
      {
        token: viewer.token,
      },
    );
    expect(response.status).toBe(200);
    return response.body.map((user) => user.username);
  };

  it('never matches a hidden email, date of birth or address', async () => {
    for (const q of ['Quokka', 'Perth', '1985-06', 'example.test', `${owner.username}@`]) {
      expect(await search(stranger, q), q).toEqual([]);
      expect(await candidates(stranger, q), q).toEqual([]);
    }
  });

  it('matches only by username or name, even where the details are shown', async () => {
    await setPrivacy(owner, allSettings('everyone'));
    for (const q of ['Quokka', '1985-06', `${owner.username}@`]) {
      expect(await search(counterpart, q), q).toEqual([]);
      expect(await search(stranger, q), q).toEqual([]);
    }
    expect(await search(stranger, 'Privacy owner')).toEqual([owner.username]);
    await setPrivacy(owner, allSettings('deal-partners'));
  });
});

describe('PUT /api/user-profile/privacy', () => {
  it('changes the settings sent, keeps the others, and answers all three', async () => {
    const user = await signUp(server);
    expect(await setPrivacy(user, { email: 'only-me' })).toEqual({
      email: 'only-me',
      dateOfBirth: 'deal-partners',
      address: 'deal-partners',
    });
    expect(await setPrivacy(user, { address: 'everyone', dateOfBirth: 'only-me' })).toEqual({
      email: 'only-me',
      dateOfBirth: 'only-me',
      address: 'everyone',
    });
    const own = await server.get('/api/user-profile', { token: user.token });
    expect(own.body.privacy).toEqual({ email: 'only-me', dateOfBirth: 'only-me', address: 'everyone' });
    // Who may see the details is not a change of the details: the profile's Last Updated stays.
    expect(own.body.updatedAt).toBe(user.user.updatedAt);
  });

  it('refuses a bad value or an unknown setting with 400, changing nothing', async () => {
    const user = await signUp(server);
    await setPrivacy(user, { email: 'only-me' });
    const emailMessage = 'Who sees your email: choose everyone, deal-partners or only-me';
    const cases: [unknown, string, Record<string, string[]>?][] = [
      [{ email: 'friends' }, emailMessage, { email: [emailMessage] }],
      [{ email: 'EVERYONE' }, emailMessage, { email: [emailMessage] }],
      [{ email: '' }, emailMessage, { email: [emailMessage] }],
      [{ email: null }, emailMessage, { email: [emailMessage] }],
      [{ email: true }, emailMessage, { email: [emailMessage] }],
      [{ dateOfBirth: 'partners' }, 'Who sees your date of birth: choose everyone, deal-partners or only-me'],
      [{ address: 3 }, 'Who sees your address: choose everyone, deal-partners or only-me'],
      // One good setting beside a bad one is not half applied.
      [
        { email: 'everyone', address: 'nobody' },
        'Who sees your address: choose everyone, deal-partners or only-me',
      ],
      [
        { phone: 'everyone' },
        'Unknown privacy setting: phone. The settings are email, dateOfBirth and address.',
      ],
      [
        { email: 'everyone', date_of_birth: 'everyone' },
        'Unknown privacy setting: date_of_birth. The settings are email, dateOfBirth and address.',
      ],
      [{}, 'Choose a setting to change: email, dateOfBirth or address'],
    ];
    for (const [body, message, fieldErrors] of cases) {
      const response = await server.put('/api/user-profile/privacy', { token: user.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.message, JSON.stringify(body)).toBe(message);
      if (fieldErrors) expect(response.body.fieldErrors).toEqual(fieldErrors);
    }
    for (const body of [[], 'everyone', 42]) {
      const response = await server.put('/api/user-profile/privacy', { token: user.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
    }
    const none = await server.put('/api/user-profile/privacy', { token: user.token });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });

    const own = await server.get('/api/user-profile', { token: user.token });
    expect(own.body.privacy).toEqual({
      email: 'only-me',
      dateOfBirth: 'deal-partners',
      address: 'deal-partners',
    });
  });

  it('needs a signed-in caller, and changes nothing without one', async () => {
    const user = await signUp(server);
    for (const token of [undefined, 'not-a-token']) {
      const response = await server.put('/api/user-profile/privacy', {
        ...(token ? { token } : {}),
        body: { email: 'everyone' },
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(signInFirst);
    }
    const own = await server.get('/api/user-profile', { token: user.token });
    expect(own.body.privacy).toEqual(allSettings('deal-partners'));
    const seen = await server.get(`/api/auth/users/${user.username}`, { token: stranger.token });
    expect(seen.body).not.toHaveProperty('email');
  });
});
