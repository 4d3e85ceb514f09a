import type { Locator, Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import { dealWithDealmaker, uniqueWord, walletOf } from './support/deals';
import { expect, test } from './support/fixtures';
import { seriousAxeViolations } from './support/page-checks';

// The creator's controls: a deal whose creator approves who joins (ask, accept, decline, live on both
// sides), editing it while it has no dealmaker, removing its counterpart; and a payment the wallet cannot
// cover, said before the click.

/** The value beside a label in a description list (the header's Budget, the Participants' people). */
const valueBeside = (scope: Locator, label: string) => scope.locator(`dt:text-is("${label}") + dd`);

const takePart = (page: Page) => page.getByRole('region', { name: 'Take part' });
const manageDeal = (page: Page) => page.getByRole('region', { name: 'Manage Deal' });
const joinRequests = (page: Page) => page.getByRole('region', { name: 'Requests to join' });
const participants = (page: Page) => page.getByRole('region', { name: 'Participants' });

/** A pending request in the creator's Requests to join, by its requester. */
const requestOf = (page: Page, username: string) =>
  joinRequests(page)
    .getByRole('article')
    .filter({ has: page.getByRole('link', { name: `@${username}`, exact: true }) });

test('a deal whose creator approves who joins: ask, accept, edit, remove, decline, live on both sides', async ({
  alice,
  bob,
  carol,
}) => {
  test.slow();
  const title = `Cold-chain logistics partner ${uniqueWord('cc')}`;
  const a = alice.page;
  const b = bob.page;
  const c = carol.page;

  // alice posts the deal, choosing to approve who joins.
  await a.goto('/deals');
  await a.getByRole('button', { name: 'Create Deal' }).click();
  const create = a.getByRole('dialog', { name: 'Create Deal' });
  await expect(create.getByRole('radio', { name: 'Anyone can join', exact: true })).toBeChecked();
  await create.getByLabel('Title').fill(title);
  await create.getByLabel('Description').fill('Refrigerated trucks between Lyon and Milan.');
  await create.getByLabel('Budget ($)').fill('5000');
  await create.getByLabel('Timeline').fill('3 months');
  await create.getByRole('radio', { name: 'I approve who joins', exact: true }).check();
  expect(await seriousAxeViolations(a)).toEqual([]);
  const created = a.waitForResponse(
    (response) => response.url().endsWith('/api/deals/create-deal') && response.request().method() === 'POST',
  );
  await create.getByRole('button', { name: 'Create Deal' }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  const deal = (await answer.json()) as { id: number; joinPolicy: string };
  expect(deal.joinPolicy).toBe('approval');
  await expect(a.getByText('Deal created successfully!')).toBeVisible();

  await a.goto(`/deals/${deal.id}`);
  await expect(joinRequests(a).getByText('No requests to join yet.', { exact: true })).toBeVisible();

  // bob may only ask; he asks, with a message.
  await b.goto(`/deals/${deal.id}`);
  await expect(takePart(b).getByRole('button', { name: 'Ask to Join', exact: true })).toBeVisible();
  await expect(takePart(b).getByRole('button', { name: 'Join Deal' })).toHaveCount(0);
  await takePart(b).getByRole('button', { name: 'Ask to Join', exact: true }).click();
  const ask = b.getByRole('dialog', { name: 'Ask to Join' });
  await expect(
    ask.getByText(`The creator of '${title}' accepts who joins it as the second dealer.`),
  ).toBeVisible();
  await ask.getByLabel('Message (optional)').fill('We run twelve reefer trucks on that route.');
  expect(await seriousAxeViolations(b)).toEqual([]);
  await ask.getByRole('button', { name: 'Send Request', exact: true }).click();
  await expect(ask).toBeHidden();
  await expect(takePart(b).getByText('Request to join sent successfully!', { exact: true })).toBeVisible();
  await expect(
    takePart(b).getByText('Request sent — waiting for the creator', { exact: true }),
  ).toBeVisible();
  await expect(takePart(b).getByRole('button', { name: 'Ask to Join' })).toHaveCount(0);

  // alice sees it arrive without reloading, the requester linked to their profile, and accepts.
  const bobsRequest = requestOf(a, bob.user.username);
  await expect(
    bobsRequest.getByText('We run twelve reefer trucks on that route.', { exact: true }),
  ).toBeVisible();
  await expect(bobsRequest.getByRole('link', { name: `@${bob.user.username}`, exact: true })).toHaveAttribute(
    'href',
    `/users/${bob.user.username}`,
  );
  expect(await seriousAxeViolations(a)).toEqual([]);
  await bobsRequest.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(joinRequests(a).getByText('Request accepted successfully!', { exact: true })).toBeVisible();
  await expect(valueBeside(participants(a), 'Deal Counterpart')).toContainText(`@${bob.user.username}`);

  // bob is the counterpart, on his open page.
  await expect(b.getByText('You joined this deal', { exact: true })).toBeVisible();
  await expect(valueBeside(participants(b), 'Deal Counterpart')).toContainText(`@${bob.user.username}`);

  // alice corrects the budget; bob's page shows it at once.
  await manageDeal(a).getByRole('button', { name: 'Edit Deal', exact: true }).click();
  const edit = a.getByRole('dialog', { name: 'Edit Deal' });
  await expect(edit.getByLabel('Title')).toHaveValue(title);
  await expect(edit.getByLabel('Budget ($)')).toHaveValue('5000');
  await edit.getByLabel('Budget ($)').fill('6250.5');
  expect(await seriousAxeViolations(a)).toEqual([]);
  const edited = a.waitForRequest(
    (request) => request.url().endsWith(`/api/deals/${deal.id}`) && request.method() === 'PATCH',
  );
  await edit.getByRole('button', { name: 'Save Changes', exact: true }).click();
  expect((await edited).postDataJSON()).toEqual({ budget: 6250.5 });
  await expect(edit).toBeHidden();
  await expect(manageDeal(a).getByText('Deal updated successfully!', { exact: true })).toBeVisible();
  await expect(valueBeside(a.locator('main'), 'Budget')).toHaveText('$6,250.50');
  await expect(valueBeside(b.locator('main'), 'Budget')).toHaveText('$6,250.50');

  // alice removes bob, asked first.
  await manageDeal(a).getByRole('button', { name: 'Remove Counterpart', exact: true }).click();
  await expect(confirmation(a)).toContainText(
    `Remove @${bob.user.username} from '${title}'. Their bid selection goes with them, and another dealer may ask to join in their place.`,
  );
  await confirmAction(a, 'Remove Counterpart');
  await expect(manageDeal(a).getByText('Counterpart removed successfully!', { exact: true })).toBeVisible();
  await expect(valueBeside(participants(a), 'Deal Counterpart')).toHaveText('Not joined yet');
  await expect(valueBeside(participants(b), 'Deal Counterpart')).toHaveText('Not joined yet');
  await expect(takePart(b).getByRole('button', { name: 'Ask to Join', exact: true })).toBeVisible();

  // carol asks without a word; alice declines; carol sees it, and may ask again.
  await c.goto(`/deals/${deal.id}`);
  await takePart(c).getByRole('button', { name: 'Ask to Join', exact: true }).click();
  await c.getByRole('dialog', { name: 'Ask to Join' }).getByRole('button', { name: 'Send Request' }).click();
  await expect(
    takePart(c).getByText('Request sent — waiting for the creator', { exact: true }),
  ).toBeVisible();
  const carolsRequest = requestOf(a, carol.user.username);
  await expect(carolsRequest.getByText('No message.', { exact: true })).toBeVisible();
  await carolsRequest.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(joinRequests(a).getByText('Request declined successfully!', { exact: true })).toBeVisible();
  await expect(carolsRequest).toHaveCount(0);
  await expect(takePart(c).getByText('Your request to join was declined.', { exact: true })).toBeVisible();
  await expect(takePart(c).getByText('Request sent — waiting for the creator')).toHaveCount(0);
  await expect(takePart(c).getByRole('button', { name: 'Ask to Join', exact: true })).toBeVisible();
});

test('a dealer whose wallet cannot cover their half is told before the click, and cannot pay', async ({
  alice,
  bob,
  carol,
}) => {
  const title = `Printing press purchase ${uniqueWord('pp')}`;
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    { title, description: 'A used press with its manuals.', budget: 5000, timeline: '2 weeks' },
  );
  expect((await walletOf(alice)).balance).toBe(0);
  const page = alice.page;
  await page.goto(`/deals/${deal.id}`);
  await page
    .getByRole('region', { name: 'Escrow Payment Status' })
    .getByRole('button', { name: 'Pay my half', exact: true })
    .click();
  const asked = confirmation(page);
  await expect(asked).toContainText('Your balance is $0.00: you need $2,500.00. Deposit first.');
  await expect(asked.getByRole('button', { name: 'Pay my half', exact: true })).toBeDisabled();
  await expect(asked.getByRole('link', { name: 'Deposit first', exact: true })).toHaveAttribute(
    'href',
    '/deposit',
  );
  expect(await seriousAxeViolations(page)).toEqual([]);
  await asked.getByRole('link', { name: 'Deposit first', exact: true }).click();
  await expect(page).toHaveURL(/\/deposit$/);
  await expect(page.getByRole('heading', { name: 'Wallet & Deposits' })).toBeVisible();
  expect((await walletOf(alice)).balance).toBe(0);
});
