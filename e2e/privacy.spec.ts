import type { Locator, Page } from '@playwright/test';
import { createDeal, joinDeal, uniqueWord } from './support/deals';
import { type Actor, expect, test } from './support/fixtures';
import { horizontalOverflow, openSettled, seriousAxeViolations } from './support/page-checks';

// Each member chooses who sees their email, date of birth and address; a hidden detail is simply absent
// from the users page and the profile page of whoever may not see it.

/** The value shown beside a label on a user's profile page (the Profile Details list). */
const detail = (page: Page, label: string) => page.getByRole('main').locator(`dt:text-is("${label}") + dd`);

/** The member's card on the users page, found with the live search. */
async function cardOf(viewer: Actor, member: Actor): Promise<Locator> {
  await openSettled(viewer.page, '/users');
  await viewer.page.getByRole('searchbox', { name: 'Search users' }).fill(member.user.username);
  const card = viewer.page.getByRole('listitem').filter({ hasText: `@${member.user.username}` });
  await expect(card).toHaveCount(1);
  return card;
}

async function fillProfile(actor: Actor, details: { date_of_birth: string; address: string }) {
  const response = await actor.context.request.post('/api/user-profile', {
    data: { full_name: actor.user.full_name, ...details },
    headers: { authorization: `Bearer ${actor.token}` },
  });
  expect(response.status()).toBe(200);
}

test('bob hides his email: alice sees it nowhere, and once they share a deal she sees what his partners may', async ({
  alice,
  bob,
}) => {
  test.slow();
  const address = `${uniqueWord('Wombat')} Street 9`;
  await fillProfile(bob, { date_of_birth: '1988-07-14', address });

  // Bob opens My Profile's Privacy card: his email for himself only, his date of birth for everyone,
  // his address left to the people he shares a deal with (the default).
  await openSettled(bob.page, '/profile');
  const privacy = bob.page.getByRole('region', { name: 'Privacy' });
  await expect(privacy.getByLabel('Address')).toHaveValue('deal-partners');
  await privacy.getByLabel('Email').selectOption({ label: 'Only me' });
  await privacy.getByLabel('Date of Birth').focus();
  // The keyboard alone changes a choice.
  await bob.page.keyboard.press('ArrowUp');
  await expect(privacy.getByLabel('Date of Birth')).toHaveValue('everyone');
  await privacy.getByRole('button', { name: 'Save privacy settings' }).click();
  await expect(privacy.getByRole('status')).toHaveText('Privacy settings saved.');
  expect(await seriousAxeViolations(bob.page)).toEqual([]);

  // On a phone the card fits and its selects are big enough for a finger.
  await bob.page.setViewportSize({ width: 360, height: 800 });
  for (const label of ['Email', 'Date of Birth', 'Address']) {
    const box = await privacy.getByLabel(label).boundingBox();
    expect(box?.height, label).toBeGreaterThanOrEqual(40);
  }
  expect((await horizontalOverflow(bob.page)).overflow).toBe(0);

  // Alice shares no deal with Bob: no email on his card, and on his profile only the date of birth.
  const card = await cardOf(alice, bob);
  await expect(card).not.toContainText(bob.user.email);
  await expect(card).not.toContainText('undefined');
  await card.getByRole('link', { name: 'View Profile' }).click();
  await expect(alice.page.getByRole('heading', { level: 1, name: bob.user.full_name })).toBeVisible();
  await expect(detail(alice.page, 'Full Name')).toHaveText(bob.user.full_name);
  await expect(detail(alice.page, 'Date of Birth')).toHaveText('July 14, 1988');
  await expect(detail(alice.page, 'Email')).toHaveCount(0);
  await expect(detail(alice.page, 'Address')).toHaveCount(0);
  await expect(alice.page.getByRole('main')).not.toContainText(bob.user.email);
  await expect(alice.page.getByRole('main')).not.toContainText(address);

  // Nor does the search find him by what she may not see.
  await openSettled(alice.page, '/users');
  await alice.page.getByRole('searchbox', { name: 'Search users' }).fill(address.split(' ')[0]!);
  await expect(alice.page.getByText('No users found')).toBeVisible();

  // Alice's deal, joined by Bob: now they are deal partners.
  const deal = await createDeal(alice, {
    title: `Privacy ${uniqueWord('deal')}`,
    description: 'A deal that makes alice and bob partners.',
    budget: 500,
    timeline: '1 week',
  });
  await joinDeal(bob, deal.id);

  // The address (for deal partners) appears; the email (only Bob) still does not.
  await openSettled(alice.page, `/users/${bob.user.username}`);
  await expect(detail(alice.page, 'Address')).toHaveText(address);
  await expect(detail(alice.page, 'Date of Birth')).toHaveText('July 14, 1988');
  await expect(detail(alice.page, 'Email')).toHaveCount(0);
  await expect(await cardOf(alice, bob)).not.toContainText(bob.user.email);

  // Bob lets his deal partners see his email too: Alice sees it on his card and his profile.
  await bob.page.setViewportSize({ width: 1280, height: 800 });
  await openSettled(bob.page, '/profile');
  await privacy.getByLabel('Email').selectOption({ label: 'People I share a deal with' });
  await privacy.getByRole('button', { name: 'Save privacy settings' }).click();
  await expect(privacy.getByRole('status')).toHaveText('Privacy settings saved.');
  await expect(await cardOf(alice, bob)).toContainText(bob.user.email);
  await openSettled(alice.page, `/users/${bob.user.username}`);
  await expect(detail(alice.page, 'Email')).toHaveText(bob.user.email);
});
