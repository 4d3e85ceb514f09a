import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '../../../contract/reviews';
import {
  assignDealmakerByRequest,
  dealWithDealers,
  isoTimestamp,
  markCompletedInDb,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, signInFirst, unknownId } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { noticesIn, recordEvents } from '../../test/recorded-events';

const userNotFound = { message: 'User not found', code: 'NOT_FOUND' };
const onlyParticipants = {
  message: 'Only the participants of this deal can review each other.',
  code: 'FORBIDDEN',
};
const notYet = { message: 'Reviews open once the deal is completed.', code: 'CONFLICT' };
const badRating = invalid('rating', 'Rating must be a whole number from 1 to 5');

type Trio = { creator: SignedUpUser; counterpart: SignedUpUser; dealmaker: SignedUpUser };

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;
let recorder: ReturnType<typeof recordEvents>;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, dealmaker, outsider] = (await signUpMany(server, 4)) as [
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
  ];
  recorder = recordEvents(server);
});
afterAll(() => server.close());

/** A deal with both dealers and its dealmaker, completed unless told otherwise. */
async function finishedDeal(people: Trio = { creator, counterpart, dealmaker }, completed = true) {
  const deal = await dealWithDealers(server, people.creator, people.counterpart);
  await assignDealmakerByRequest(server, people.creator, deal.id, people.dealmaker);
  if (completed) await markCompletedInDb(server, deal.id);
  return deal;
}

/** Three users no other test has reviewed. */
async function freshTrio(): Promise<Trio> {
  const [a, b, c] = (await signUpMany(server, 3)) as [SignedUpUser, SignedUpUser, SignedUpUser];
  return { creator: a, counterpart: b, dealmaker: c };
}

const postReview = (user: SignedUpUser, body: unknown) =>
  server.post<Review>('/api/reviews', { token: user.token, body });
const reviewsOf = (username: string, viewer = outsider) =>
  server.get(`/api/reviews/user/${encodeURIComponent(username)}`, { token: viewer.token });
const reviewable = (user: SignedUpUser, dealId: number) =>
  server.get(`/api/reviews/deal/${dealId}/reviewable`, { token: user.token });

/** Posts a review (asserting 201). */
async function review(by: SignedUpUser, dealId: number, of: SignedUpUser, rating: number, comment?: string) {
  const response = await postReview(by, { dealId, reviewedUsername: of.username, rating, comment });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('POST /api/reviews', () => {
  it('records a review of another participant and answers 201 with its full shape', async () => {
    const deal = await finishedDeal();
    recorder.take();
    const response = await postReview(creator, {
      dealId: deal.id,
      reviewedUsername: dealmaker.username,
      rating: 5,
      comment: '  Smooth and fast.  ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      dealTitle: deal.title,
      reviewedUsername: dealmaker.username,
      rating: 5,
      comment: 'Smooth and fast.',
      createdAt: isoTimestamp,
      reviewer: { full_name: creator.full_name, username: creator.username },
    });
    expect(noticesIn(recorder.take())).toEqual([
      {
        to: dealmaker.user.id,
        kind: 'review-received',
        dealId: deal.id,
        message: `${creator.username} left you a 5-star review for "${deal.title}".`,
      },
    ]);
  });

  it('makes the comment optional', async () => {
    const deal = await finishedDeal();
    const response = await postReview(counterpart, {
      dealId: deal.id,
      reviewedUsername: creator.username,
      rating: 3,
    });
    expect(response.status).toBe(201);
    expect(response.body.comment).toBe('');
  });

  it('finds the reviewed user whatever the case of the username', async () => {
    const deal = await finishedDeal();
    const response = await postReview(counterpart, {
      dealId: deal.id,
      reviewedUsername: dealmaker.username.toUpperCase(),
      rating: 4,
    });
    expect(response.status).toBe(201);
    expect(response.body.reviewedUsername).toBe(dealmaker.username);
  });

  it('opens only once the deal is completed', async () => {
    const deal = await finishedDeal(undefined, false);
    recorder.take();
    for (const [by, of] of [
      [creator, dealmaker],
      [counterpart, creator],
      [dealmaker, counterpart],
    ] as const) {
      const response = await postReview(by, { dealId: deal.id, reviewedUsername: of.username, rating: 4 });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(notYet);
    }
    expect(recorder.take()).toEqual([]);
    await markCompletedInDb(server, deal.id);
    await review(creator, deal.id, dealmaker, 4);
  });

  it('refuses a reviewer who is not on the deal', async () => {
    for (const completed of [true, false]) {
      const deal = await finishedDeal(undefined, completed);
      const response = await postReview(outsider, {
        dealId: deal.id,
        reviewedUsername: dealmaker.username,
        rating: 1,
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyParticipants);
    }
  });

  it('refuses to review someone who is not on the deal', async () => {
    const deal = await finishedDeal();
    const response = await postReview(creator, {
      dealId: deal.id,
      reviewedUsername: outsider.username,
      rating: 2,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: `${outsider.username} is not a participant of this deal.`,
      code: 'VALIDATION_FAILED',
    });
  });

  it('refuses a review of oneself', async () => {
    const deal = await finishedDeal();
    const response = await postReview(dealmaker, {
      dealId: deal.id,
      reviewedUsername: dealmaker.username,
      rating: 5,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'You cannot review yourself.', code: 'VALIDATION_FAILED' });
  });

  it('answers 404 for an unknown user or deal', async () => {
    const deal = await finishedDeal();
    const noUser = await postReview(creator, { dealId: deal.id, reviewedUsername: 'nobody_here', rating: 3 });
    expect(noUser.status).toBe(404);
    expect(noUser.body).toEqual(userNotFound);
    const noDeal = await postReview(creator, {
      dealId: unknownId,
      reviewedUsername: dealmaker.username,
      rating: 3,
    });
    expect(noDeal.status).toBe(404);
    expect(noDeal.body).toEqual(dealNotFound);
  });

  it('takes one review per reviewer, reviewed user and deal', async () => {
    const deal = await finishedDeal();
    const first = await review(counterpart, deal.id, dealmaker, 4, 'Good');
    const again = await postReview(counterpart, {
      dealId: deal.id,
      reviewedUsername: dealmaker.username,
      rating: 1,
      comment: 'Changed my mind',
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: `You have already reviewed ${dealmaker.username} for this deal.`,
      code: 'CONFLICT',
    });
    // The same pair on another deal is a new review.
    const other = await finishedDeal();
    await review(counterpart, other.id, dealmaker, 2);
    const stored = (await reviewsOf(dealmaker.username)).body.reviews as Review[];
    expect(
      stored.filter((r) => r.dealId === deal.id && r.reviewer.username === counterpart.username),
    ).toEqual([first]);
  });

  it('stores one review when the same review is sent twice at once', async () => {
    const people = await freshTrio();
    const deal = await finishedDeal(people);
    const body = { dealId: deal.id, reviewedUsername: people.dealmaker.username, rating: 5 };
    const responses = await Promise.all([1, 2, 3].map(() => postReview(people.creator, body)));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await reviewsOf(people.dealmaker.username)).body.totalReviews).toBe(1);
  });

  it('takes whole ratings from 1 to 5 only', async () => {
    const deal = await finishedDeal();
    for (const rating of [0, 6, 4.5, '5', -1, null]) {
      const response = await postReview(creator, {
        dealId: deal.id,
        reviewedUsername: counterpart.username,
        rating,
      });
      expect(response.status, `rating ${rating}`).toBe(400);
      expect(response.body).toEqual(badRating);
    }
    const missing = await postReview(creator, { dealId: deal.id, reviewedUsername: counterpart.username });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(badRating);
    expect((await review(creator, deal.id, counterpart, 1)).rating).toBe(1);
    expect((await review(creator, deal.id, dealmaker, 5)).rating).toBe(5);
  });

  it('takes a comment of at most 1000 characters, trimmed', async () => {
    const deal = await finishedDeal();
    const tooLong = await postReview(creator, {
      dealId: deal.id,
      reviewedUsername: counterpart.username,
      rating: 3,
      comment: 'x'.repeat(1001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(invalid('comment', 'Comment must be at most 1000 characters'));
    const longest = await review(creator, deal.id, counterpart, 3, `  ${'y'.repeat(1000)}  `);
    expect(longest.comment).toBe('y'.repeat(1000));
  });

  it('requires the user to review', async () => {
    const deal = await finishedDeal();
    for (const reviewedUsername of [undefined, '', '   ']) {
      const response = await postReview(creator, { dealId: deal.id, reviewedUsername, rating: 3 });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('reviewedUsername', 'Please select a user to review'));
    }
  });

  it('answers 401 without a token', async () => {
    const deal = await finishedDeal();
    const response = await server.post('/api/reviews', {
      body: { dealId: deal.id, reviewedUsername: dealmaker.username, rating: 5 },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/reviews/user/{username}', () => {
  it('lists the reviews a user received, newest first, with their exact average', async () => {
    const people = await freshTrio();
    const first = await finishedDeal(people);
    const second = await finishedDeal(people);
    const r1 = await review(people.creator, first.id, people.dealmaker, 5, 'Great');
    const r2 = await review(people.counterpart, first.id, people.dealmaker, 4);
    const r3 = await review(people.creator, second.id, people.dealmaker, 4, 'Fine again');
    // Reviews the user wrote do not count for them.
    await review(people.dealmaker, first.id, people.creator, 1);

    const response = await reviewsOf(people.dealmaker.username);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reviews: [r3, r2, r1], averageRating: 13 / 3, totalReviews: 3 });
    expect(r3).toEqual({
      id: expect.any(Number),
      dealId: second.id,
      dealTitle: second.title,
      reviewedUsername: people.dealmaker.username,
      rating: 4,
      comment: 'Fine again',
      createdAt: isoTimestamp,
      reviewer: { full_name: people.creator.full_name, username: people.creator.username },
    });
    // Anyone signed in may read them, whatever the case of the name.
    const byOther = await reviewsOf(people.dealmaker.username.toUpperCase(), people.counterpart);
    expect(byOther.body).toEqual(response.body);
  });

  it('answers an empty list and a zero average for a user without reviews', async () => {
    const [nobody] = (await signUpMany(server, 1)) as [SignedUpUser];
    const response = await reviewsOf(nobody.username);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reviews: [], averageRating: 0, totalReviews: 0 });
  });

  it('answers 404 for an unknown user and 401 without a token', async () => {
    const unknown = await reviewsOf('nobody_here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(userNotFound);
    const anonymous = await server.get(`/api/reviews/user/${creator.username}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('GET /api/reviews/deal/{dealId}/reviewable', () => {
  it('lists the other participants the caller has not reviewed yet, shrinking to empty', async () => {
    const deal = await finishedDeal();
    const first = await reviewable(counterpart, deal.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      reviewableUsers: [
        { username: creator.username, role: 'creator' },
        { username: dealmaker.username, role: 'dealmaker' },
      ],
      dealTitle: deal.title,
    });

    await review(counterpart, deal.id, dealmaker, 4);
    expect((await reviewable(counterpart, deal.id)).body).toEqual({
      reviewableUsers: [{ username: creator.username, role: 'creator' }],
      dealTitle: deal.title,
    });

    await review(counterpart, deal.id, creator, 5);
    expect((await reviewable(counterpart, deal.id)).body).toEqual({
      reviewableUsers: [],
      dealTitle: deal.title,
    });

    // Someone else's reviews do not shrink the creator's list.
    expect((await reviewable(creator, deal.id)).body).toEqual({
      reviewableUsers: [
        { username: counterpart.username, role: 'counterpart' },
        { username: dealmaker.username, role: 'dealmaker' },
      ],
      dealTitle: deal.title,
    });
    expect((await reviewable(dealmaker, deal.id)).body.reviewableUsers).toEqual([
      { username: creator.username, role: 'creator' },
      { username: counterpart.username, role: 'counterpart' },
    ]);
  });

  it('answers 409 before the deal is completed', async () => {
    const deal = await finishedDeal(undefined, false);
    for (const user of [creator, counterpart, dealmaker]) {
      const response = await reviewable(user, deal.id);
      expect(response.status).toBe(409);
      expect(response.body).toEqual(notYet);
    }
  });

  it('refuses outsiders', async () => {
    const deal = await finishedDeal();
    const response = await reviewable(outsider, deal.id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(onlyParticipants);
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await reviewable(creator, unknownId);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const deal = await finishedDeal();
    const anonymous = await server.get(`/api/reviews/deal/${deal.id}/reviewable`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('a completed deal reviewed all round', () => {
  it('gives each participant two reviews and the mean of their ratings', async () => {
    const people = await freshTrio();
    const { creator: a, counterpart: b, dealmaker: c } = people;
    const deal = await finishedDeal(people);
    await review(a, deal.id, b, 5);
    await review(a, deal.id, c, 4);
    await review(b, deal.id, a, 3);
    await review(b, deal.id, c, 5);
    await review(c, deal.id, a, 2);
    await review(c, deal.id, b, 4);

    for (const [user, ratings] of [
      [a, [2, 3]],
      [b, [4, 5]],
      [c, [5, 4]],
    ] as const) {
      const response = await reviewsOf(user.username);
      expect(response.status).toBe(200);
      expect(response.body.totalReviews).toBe(2);
      expect((response.body.reviews as Review[]).map((r) => r.rating)).toEqual(ratings);
      expect(response.body.averageRating).toBe((ratings[0] + ratings[1]) / 2);
      expect((await reviewable(user, deal.id)).body).toEqual({ reviewableUsers: [], dealTitle: deal.title });
    }
  });
});
