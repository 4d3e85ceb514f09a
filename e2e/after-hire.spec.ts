import type { Page } from '@playwright/test';
import { confirmAction } from './support/confirm';
import { dealWithDealmaker, deposit, payEscrowHalf, uniqueWord } from './support/deals';
import type { Actor } from './support/fixtures';
import { expect, test } from './support/fixtures';

// After the dealmaker is hired: progress tracked by the dealmaker and watched live by a dealer, a
// dispute that blocks completion until the dealmaker resolves it, completion, reviews all round,
// and what the profile pages show afterwards.

async function openDeal(page: Page, deal: { id: number; title: string }) {
  await page.goto(`/deals/${deal.id}`);
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
}

const dealActions = (page: Page) => page.getByRole('region', { name: 'Deal actions' });

async function openProgress(page: Page) {
  await dealActions(page).getByRole('button', { name: 'Track Progress' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deal Progress Tracking' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openDisputes(page: Page) {
  await dealActions(page).getByRole('button', { name: 'Manage Disputes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deal Disputes' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openReviews(page: Page) {
  await dealActions(page).getByRole('button', { name: 'Leave Reviews' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave a Review' });
  await expect(dialog).toBeVisible();
  return dialog;
}

const ratingNames = {
  1: '1 star (Poor)',
  2: '2 stars (Fair)',
  3: '3 stars (Good)',
  4: '4 stars (Very Good)',
  5: '5 stars (Excellent)',
} as const;
const ratingCaptions = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very Good', 5: 'Excellent' } as const;
type Rating = keyof typeof ratingNames;

/** The reviewer leaves a review for each of the given people, in the Leave a Review dialog. */
async function leaveReviews(
  reviewer: Actor,
  deal: { id: number; title: string },
  reviews: Array<{
    of: Actor;
    role: 'creator' | 'counterpart' | 'dealmaker';
    rating: Rating;
    comment: string;
  }>,
) {
  const page = reviewer.page;
  await openDeal(page, deal);
  const dialog = await openReviews(page);
  await expect(dialog.getByText(deal.title)).toBeVisible();
  for (const [index, review] of reviews.entries()) {
    const participant = dialog.getByLabel('Participant');
    await expect(participant).toHaveValue('');
    await expect(dialog.getByText('Click a star to rate')).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Submit Review' });
    await expect(submit).toBeDisabled();
    await participant.selectOption({ label: `${review.of.user.username} (${review.role})` });
    // A click on the star (the radio button itself is visually hidden inside it).
    const star = dialog.getByRole('radio', { name: ratingNames[review.rating] });
    await star.locator('xpath=..').click();
    await expect(star).toBeChecked();
    await expect(dialog.getByText(ratingCaptions[review.rating], { exact: true })).toBeVisible();
    await dialog.getByLabel('Comment').fill(review.comment);
    await submit.click();
    await expect(page.getByText('Review submitted successfully!').first()).toBeVisible();
    if (index < reviews.length - 1) {
      // The reviewed person is no longer offered.
      await expect(
        participant.getByRole('option', { name: `${review.of.user.username} (${review.role})` }),
      ).toHaveCount(0);
    }
  }
  // After the last one the dialog closes; opened again, there is nobody left to review.
  await expect(dialog).toBeHidden();
  const again = await openReviews(page);
  await expect(again.getByText('All reviews submitted!')).toBeVisible();
  await expect(again.getByText('You have reviewed all participants in this deal.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(again).toBeHidden();
}

/** Someone's profile page: the Reviews tab's summary and the Activity tab's entry for the deal. */
async function expectProfile(
  viewer: Page,
  person: Actor,
  expected: {
    average: string;
    stars: number;
    reviews: string;
    dealTitle: string;
    badge: 'Creator' | 'Participant' | 'Dealmaker';
  },
) {
  await viewer.goto(`/users/${person.user.username}`);
  await expect(viewer.getByText(`@${person.user.username}`, { exact: true })).toBeVisible();

  await viewer.getByRole('tab', { name: 'Reviews' }).click();
  const reviews = viewer.getByRole('tabpanel');
  await expect(reviews.getByText('Overall Rating')).toBeVisible();
  await expect(reviews.getByText(expected.average, { exact: true })).toBeVisible();
  await expect(reviews.getByText(expected.reviews, { exact: true })).toBeVisible();
  await expect(reviews.getByRole('img', { name: `${expected.stars} out of 5 stars` }).first()).toBeVisible();
  await expect(reviews.getByText(`Deal: ${expected.dealTitle}`)).toHaveCount(2);

  await viewer.getByRole('tab', { name: /^Activity/ }).click();
  const activity = viewer.getByRole('tabpanel');
  const entry = activity
    .getByRole('listitem')
    .filter({ has: viewer.getByRole('link', { name: expected.dealTitle }) });
  await expect(entry).toBeVisible();
  await expect(entry.getByText(expected.badge, { exact: true })).toBeVisible();
  await expect(entry.getByText('Completed', { exact: true })).toBeVisible();
}

test('progress live, a dispute blocks completion until resolved, then reviews all round', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(180_000);
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    {
      title: `Joint venture ${uniqueWord('hire')}`,
      description: 'A deal with milestones, a dispute and reviews.',
      budget: 300,
      timeline: '1 month',
    },
  );
  const a = alice.page;
  const b = bob.page;
  const c = carol.page;

  // The dealmaker and dealer A both open Deal Progress Tracking.
  await Promise.all([openDeal(a, deal), openDeal(c, deal)]);
  const cProgress = await openProgress(c);
  const aProgress = await openProgress(a);
  await expect(cProgress.getByText('No progress items found for this deal.')).toBeVisible();
  await expect(cProgress.getByText('Click "Add Progress Item" to start tracking progress.')).toBeVisible();
  await expect(aProgress.getByText('No progress items found for this deal.')).toBeVisible();
  await expect(aProgress.getByText('Click "Add Progress Item" to start tracking progress.')).toHaveCount(0);
  await expect(aProgress.getByRole('button', { name: 'Add Progress Item' })).toHaveCount(0);

  const steps = [
    { title: 'Draft the agreement', description: 'Both sides agree on the terms.' },
    { title: 'Sign the agreement', description: 'Signatures from both dealers.' },
  ];
  for (const [index, step] of steps.entries()) {
    await cProgress.getByRole('button', { name: 'Add Progress Item' }).click();
    const form = cProgress.getByRole('form', { name: 'Add Progress Item' });
    await form.getByLabel('Title').fill(step.title);
    await form.getByLabel('Description').fill(step.description);
    await form.getByRole('button', { name: 'Add Item' }).click();
    await expect(cProgress.getByText('Progress item created successfully')).toBeVisible();
    const mine = cProgress.getByRole('article', { name: `Step ${index + 1}: ${step.title}` });
    await expect(mine.getByText('Pending', { exact: true })).toBeVisible();
    await expect(mine.getByRole('button', { name: 'Start Progress' })).toBeVisible();
    // A sees it appear without reloading.
    const theirs = aProgress.getByRole('article', { name: `Step ${index + 1}: ${step.title}` });
    await expect(theirs).toBeVisible({ timeout: 5_000 });
    await expect(theirs.getByText(step.description)).toBeVisible();
    await expect(theirs.getByText('Pending', { exact: true })).toBeVisible();
    await expect(theirs.getByRole('button')).toHaveCount(0);
  }

  const cStep1 = cProgress.getByRole('article', { name: `Step 1: ${steps[0]!.title}` });
  const cStep2 = cProgress.getByRole('article', { name: `Step 2: ${steps[1]!.title}` });
  const aStep1 = aProgress.getByRole('article', { name: `Step 1: ${steps[0]!.title}` });
  const aStep2 = aProgress.getByRole('article', { name: `Step 2: ${steps[1]!.title}` });

  await cStep1.getByRole('button', { name: 'Start Progress' }).click();
  await expect(cProgress.getByText('Progress updated to in progress')).toBeVisible();
  await expect(cStep1.getByText('In Progress', { exact: true })).toBeVisible();
  await expect(aStep1.getByText('In Progress', { exact: true })).toBeVisible({ timeout: 5_000 });

  await cStep1.getByRole('button', { name: 'Mark Complete' }).click();
  await expect(cProgress.getByText('Progress updated to completed')).toBeVisible();
  await expect(cStep1.getByText('Completed', { exact: true })).toBeVisible();
  await expect(cStep1.getByText(`by ${carol.user.full_name}`)).toBeVisible();
  await expect(cStep1.getByRole('button')).toHaveCount(0);
  await expect(aStep1.getByText('Completed', { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(aStep1.getByText(`by ${carol.user.full_name}`)).toBeVisible();

  await cStep2.getByRole('button', { name: 'Start Progress' }).click();
  await expect(cStep2.getByText('In Progress', { exact: true })).toBeVisible();
  await expect(aStep2.getByText('In Progress', { exact: true })).toBeVisible({ timeout: 5_000 });
  await cStep2.getByRole('button', { name: 'Reset to Pending' }).click();
  await expect(cProgress.getByText('Progress updated to pending')).toBeVisible();
  await expect(cStep2.getByText('Pending', { exact: true })).toBeVisible();
  await expect(cStep2.getByRole('button', { name: 'Start Progress' })).toBeVisible();
  await expect(aStep2.getByText('Pending', { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(aStep1.getByText('Completed', { exact: true })).toBeVisible();

  await Promise.all([a.keyboard.press('Escape'), c.keyboard.press('Escape')]);
  await expect(aProgress).toBeHidden();
  await expect(cProgress).toBeHidden();

  // A raises a dispute.
  const dispute = { title: 'Late delivery', description: 'The first draft came a week late.' };
  const aDisputes = await openDisputes(a);
  await expect(aDisputes.getByText('No disputes found for this deal.')).toBeVisible();
  await aDisputes.getByRole('button', { name: 'Raise New Dispute' }).click();
  const raise = aDisputes.getByRole('form', { name: 'Raise New Dispute' });
  await raise.getByLabel('Title').fill(dispute.title);
  await raise.getByLabel('Description').fill(dispute.description);
  await raise.getByRole('button', { name: 'Submit Dispute' }).click();
  await expect(aDisputes.getByText('Dispute created successfully')).toBeVisible();
  const aCard = aDisputes.getByRole('article', { name: dispute.title });
  await expect(aCard.getByText('OPEN', { exact: true })).toBeVisible();
  await expect(aCard.getByText(`Raised by ${alice.user.full_name} on`)).toBeVisible();
  await expect(aCard.getByText(dispute.description)).toBeVisible();
  await expect(aCard.getByRole('button', { name: 'Resolve Dispute' })).toHaveCount(0);
  await a.keyboard.press('Escape');
  await expect(aDisputes).toBeHidden();

  // Both halves paid (not what this journey is about): only the open dispute stands in the way.
  await Promise.all([deposit(alice, 150), deposit(bob, 150)]);
  await payEscrowHalf(alice, deal.id);
  await payEscrowHalf(bob, deal.id);

  await openDeal(a, deal);
  await dealActions(a).getByRole('button', { name: 'Mark as Finished' }).click();
  await confirmAction(a, 'Mark as Finished');
  const refusal = dealActions(a).getByRole('alert');
  await expect(refusal).toContainText('Failed to mark deal as complete. Please try again.');
  await expect(refusal).toContainText('Resolve the open dispute before marking the deal as finished.');
  await expect(refusal).toHaveClass(/rose/);
  await expect(dealActions(a).getByRole('button', { name: 'Mark as Finished' })).toBeEnabled();
  await expect(
    a
      .getByRole('region', { name: 'Participants' })
      .locator('dt', { hasText: /^Creator \(@/ })
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText('⏳ Pending');

  // The dealmaker resolves it.
  await openDeal(c, deal);
  const cDisputes = await openDisputes(c);
  const cCard = cDisputes.getByRole('article', { name: dispute.title });
  await expect(cCard.getByText('OPEN', { exact: true })).toBeVisible();
  await expect(cDisputes.getByRole('button', { name: 'Raise New Dispute' })).toHaveCount(0);
  await cCard.getByRole('button', { name: 'Resolve Dispute' }).click();
  const resolution = 'Deadline moved by a week; no penalty.';
  const resolve = cCard.getByRole('form', { name: `Resolve Dispute: ${dispute.title}` });
  await resolve.getByLabel('Resolution').fill(resolution);
  await resolve.getByRole('button', { name: 'Submit Resolution' }).click();
  await expect(cDisputes.getByText('Dispute resolved successfully')).toBeVisible();
  await expect(cCard.getByText('RESOLVED', { exact: true })).toBeVisible();
  await expect(cCard.getByText(resolution)).toBeVisible();
  await expect(cCard.getByText(`Resolved by ${carol.user.full_name} on`)).toBeVisible();
  await expect(cCard.getByRole('button', { name: 'Resolve Dispute' })).toHaveCount(0);
  await c.keyboard.press('Escape');

  // Now both dealers mark the deal finished: it completes.
  await dealActions(a).getByRole('button', { name: 'Mark as Finished' }).click();
  await confirmAction(a, 'Mark as Finished');
  await expect(
    dealActions(a).getByText('You marked this deal as finished. Waiting for the other party to mark it too.'),
  ).toBeVisible();
  await expect(dealActions(a).getByRole('button', { name: 'Completed', exact: true })).toBeDisabled();

  await openDeal(b, deal);
  await dealActions(b).getByRole('button', { name: 'Mark as Finished' }).click();
  await confirmAction(b, 'Mark as Finished');
  await expect(b.getByRole('region', { name: 'Deal Completed' })).toBeVisible();
  await expect(b.getByRole('region', { name: 'Deal Completed' })).toContainText('$300.00');

  // Reviews all round.
  await leaveReviews(alice, deal, [
    { of: bob, role: 'counterpart', rating: 3, comment: 'Responsive, a little slow on paperwork.' },
    { of: carol, role: 'dealmaker', rating: 5, comment: 'Settled our dispute fairly.' },
  ]);
  await leaveReviews(bob, deal, [
    { of: alice, role: 'creator', rating: 5, comment: 'Clear terms from the start.' },
    { of: carol, role: 'dealmaker', rating: 5, comment: 'Kept the milestones moving.' },
  ]);
  await leaveReviews(carol, deal, [
    { of: alice, role: 'creator', rating: 4, comment: 'Good to work with.' },
    { of: bob, role: 'counterpart', rating: 4, comment: 'Signed on time.' },
  ]);

  // Each profile: the average of the two reviews received, and the deal with the person's part in it.
  await expectProfile(a, alice, {
    average: '4.5',
    stars: 5,
    reviews: '2 reviews',
    dealTitle: deal.title,
    badge: 'Creator',
  });
  await expectProfile(a, bob, {
    average: '3.5',
    stars: 4,
    reviews: '2 reviews',
    dealTitle: deal.title,
    badge: 'Participant',
  });
  await expectProfile(a, carol, {
    average: '5.0',
    stars: 5,
    reviews: '2 reviews',
    dealTitle: deal.title,
    badge: 'Dealmaker',
  });
});
