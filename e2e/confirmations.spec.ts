import type { Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import {
  createDeal,
  dealAs,
  dealWithDealmaker,
  deposit,
  escrowAs,
  joinDeal,
  payEscrowHalf,
  placeBid,
  requestDealmaker,
  uniqueWord,
  walletOf,
} from './support/deals';
import { expect, test } from './support/fixtures';

// Every action that moves money or cannot be undone asks first, in numbers. Cancel (or Escape) changes
// nothing; confirming (a click or Enter) moves exactly the amount the question stated.

const depositForm = (page: Page) =>
  page.locator('form').filter({ has: page.getByRole('button', { name: /^(Deposit|Processing\.\.\.)$/ }) });
const withdrawForm = (page: Page) =>
  page.locator('form').filter({ has: page.getByRole('button', { name: /^(Withdraw|Processing\.\.\.)$/ }) });
const escrowBox = (page: Page) => page.getByRole('region', { name: 'Escrow Payment Status' });
const historyRows = (page: Page) =>
  page.getByRole('listitem').filter({ has: page.getByText(/^Balance: \$/) });

test('deposit and withdraw: cancel moves nothing, confirming moves the stated amount', async ({ alice }) => {
  const page = alice.page;
  await page.goto('/deposit');
  await expect(page.getByText('No transactions yet')).toBeVisible();

  // Cancel: the question names the amount and the balance after it; nothing moves; focus comes back.
  await depositForm(page).getByLabel('Amount ($)').fill('25000');
  const depositButton = depositForm(page).getByRole('button', { name: 'Deposit', exact: true });
  await depositButton.click();
  await expect(confirmation(page)).toContainText(
    'Deposit $25,000.00 into your wallet (simulated: no card or bank is charged). Balance after: $25,000.00.',
  );
  await expect(confirmation(page).getByRole('button', { name: 'Deposit' })).toBeFocused();
  await confirmation(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmation(page)).toBeHidden();
  await expect(depositButton).toBeFocused();
  expect((await walletOf(alice)).balance).toBe(0);
  await expect(page.getByText('No transactions yet')).toBeVisible();

  // Escape cancels too; Enter confirms.
  await depositButton.click();
  await page.keyboard.press('Escape');
  await expect(confirmation(page)).toBeHidden();
  expect((await walletOf(alice)).balance).toBe(0);
  await depositButton.click();
  await expect(confirmation(page)).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Successfully deposited $25,000.00')).toBeVisible();
  expect((await walletOf(alice)).balance).toBe(25000);
  await expect(historyRows(page)).toHaveCount(1);

  // Withdraw: the same, from the balance.
  await withdrawForm(page).getByLabel('Amount ($)').fill('5250.5');
  await withdrawForm(page).getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(confirmation(page)).toContainText(
    'Withdraw $5,250.50 from your wallet. Balance after: $19,749.50.',
  );
  await confirmation(page).getByRole('button', { name: 'Cancel' }).click();
  expect((await walletOf(alice)).balance).toBe(25000);
  await withdrawForm(page).getByRole('button', { name: 'Withdraw', exact: true }).click();
  await confirmAction(page, 'Withdraw');
  await expect(page.getByText('Successfully withdrew $5,250.50')).toBeVisible();
  expect((await walletOf(alice)).balance).toBe(19749.5);
  await expect(historyRows(page)).toHaveCount(2);
});

test('escrow and completion: pay my half, take it back, mark as finished, each asked first', async ({
  alice,
  bob,
  carol,
}) => {
  test.slow();
  const title = `Acquisition of a regional courier company ${uniqueWord('c')}`;
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    { title, description: 'Courier company with depots.', budget: 10500, timeline: '3 months' },
  );
  await Promise.all([deposit(alice, 25000), deposit(bob, 25000)]);
  const page = alice.page;
  await page.goto(`/deals/${deal.id}`);
  const pay = escrowBox(page).getByRole('button', { name: 'Pay my half' });

  await pay.click();
  await expect(confirmation(page)).toContainText(
    `Pay $5,250.00 from your wallet into escrow for '${title}'. Balance after: $19,750.00.`,
  );
  await page.keyboard.press('Escape');
  await expect(pay).toBeFocused();
  expect((await walletOf(alice)).balance).toBe(25000);
  expect((await escrowAs(alice, deal.id)).escrow.creatorPaid).toBe(false);

  await pay.click();
  await confirmAction(page, 'Pay my half');
  await expect(
    escrowBox(page).getByText('Your half ($5,250.00) has been paid successfully.', { exact: false }),
  ).toBeVisible();
  expect((await walletOf(alice)).balance).toBe(19750);
  expect((await escrowAs(alice, deal.id)).escrow.creatorPaid).toBe(true);

  const takeBack = escrowBox(page).getByRole('button', { name: 'Take my half back' });
  await takeBack.click();
  await expect(confirmation(page)).toContainText(
    `Take $5,250.00 back from the escrow of '${title}' into your wallet. Balance after: $25,000.00.`,
  );
  await confirmation(page).getByRole('button', { name: 'Cancel' }).click();
  expect((await walletOf(alice)).balance).toBe(19750);
  await takeBack.click();
  await confirmAction(page, 'Take my half back');
  await expect(
    escrowBox(page).getByText('Your half ($5,250.00) has been refunded to your wallet.'),
  ).toBeVisible();
  expect((await walletOf(alice)).balance).toBe(25000);

  // Both halves in (not what this part is about), then Mark as Finished asks first.
  await payEscrowHalf(alice, deal.id);
  await payEscrowHalf(bob, deal.id);
  await page.reload();
  const markFinished = page.getByRole('button', { name: 'Mark as Finished' });
  await markFinished.click();
  await expect(confirmation(page)).toContainText(
    `Mark '${title}' as finished. Once the other dealer marks it too, the escrow of $10,500.00 is released to @${carol.user.username}. This cannot be undone.`,
  );
  await confirmation(page).getByRole('button', { name: 'Cancel' }).click();
  expect((await dealAs(alice, deal.id)).completed_by_creator).toBe(false);
  await markFinished.click();
  await confirmAction(page, 'Mark as Finished');
  await expect(page.getByRole('button', { name: 'Completed', exact: true })).toBeDisabled();
  expect((await dealAs(alice, deal.id)).completed_by_creator).toBe(true);
});

test('delete deal, leave deal and delete bid ask first; cancel keeps them', async ({ alice, bob, carol }) => {
  test.slow();
  const tag = uniqueWord('d');
  const mine = await createDeal(alice, {
    title: `Bakery chain ${tag}`,
    description: 'x',
    budget: 900,
    timeline: '1 month',
  });
  const joined = await createDeal(carol, {
    title: `Vineyard ${tag}`,
    description: 'y',
    budget: 700,
    timeline: '2 months',
  });
  await joinDeal(alice, joined.id);
  await placeBid(bob, mine.id, 450.25);

  // Bob's bid: delete asks with the amount.
  await bob.page.goto(`/deals?q=${tag}`);
  const bobCard = bob.page.getByRole('article', { name: mine.title });
  await bobCard.getByRole('button', { name: 'Delete Bid' }).click();
  await expect(confirmation(bob.page)).toContainText(`Delete your bid of $450.25 on '${mine.title}'.`);
  await confirmation(bob.page).getByRole('button', { name: 'Cancel' }).click();
  expect((await dealAs(bob, mine.id)).my_bid).toMatchObject({ price: 450.25 });
  await bobCard.getByRole('button', { name: 'Delete Bid' }).click();
  await confirmAction(bob.page, 'Delete Bid');
  await expect(bob.page.getByText('Bid deleted successfully!')).toBeVisible();
  expect((await dealAs(bob, mine.id)).my_bid).toBeNull();

  // Alice leaves Carol's deal and deletes her own, each after a question.
  await alice.page.goto(`/deals?q=${tag}`);
  const joinedCard = alice.page.getByRole('article', { name: joined.title });
  await joinedCard.getByRole('button', { name: 'Leave Deal' }).click();
  await expect(confirmation(alice.page)).toContainText(`Leave '${joined.title}'.`);
  await alice.page.keyboard.press('Escape');
  expect((await dealAs(alice, joined.id)).dealer_joined).toBe(alice.user.username);
  await joinedCard.getByRole('button', { name: 'Leave Deal' }).click();
  await confirmAction(alice.page, 'Leave Deal');
  await expect(alice.page.getByText('Left deal successfully!')).toBeVisible();
  expect((await dealAs(alice, joined.id)).dealer_joined).toBeNull();

  const mineCard = alice.page.getByRole('article', { name: mine.title });
  await mineCard.getByRole('button', { name: 'Delete Deal' }).click();
  await expect(confirmation(alice.page)).toContainText(`Delete '${mine.title}' with its bids`);
  await confirmation(alice.page).getByRole('button', { name: 'Cancel' }).click();
  expect((await dealAs(alice, mine.id)).id).toBe(mine.id);
  await mineCard.getByRole('button', { name: 'Delete Deal' }).click();
  await confirmAction(alice.page, 'Delete Deal');
  await expect(alice.page.getByText('Deal deleted successfully!')).toBeVisible();
  const gone = await alice.context.request.get(`/api/deals/${mine.id}`, {
    headers: { authorization: `Bearer ${alice.token}` },
  });
  expect(gone.status()).toBe(404);
});

test('dealmaker requests: cancel, reject and accept ask first', async ({ alice, carol, dave }) => {
  test.slow();
  const tag = uniqueWord('q');
  const deal = await createDeal(alice, {
    title: `Logistics hub ${tag}`,
    description: 'z',
    budget: 3200,
    timeline: '6 weeks',
  });
  await requestDealmaker(alice, deal.id, carol);
  await requestDealmaker(alice, deal.id, dave);

  // Carol is asked before rejecting, and before accepting.
  await carol.page.goto('/dealmaker-panel');
  await carol.page.getByRole('button', { name: 'View Incoming Requests' }).click();
  const request = carol.page
    .getByRole('dialog', { name: 'Incoming Dealmaker Requests' })
    .getByRole('article', { name: deal.title });
  await request.getByRole('button', { name: 'Reject' }).click();
  await expect(confirmation(carol.page)).toContainText(
    `Reject @${alice.user.username}'s request to be the dealmaker of '${deal.title}'.`,
  );
  await confirmation(carol.page).getByRole('button', { name: 'Cancel' }).click();
  await request.getByRole('button', { name: 'Accept' }).click();
  await expect(confirmation(carol.page)).toContainText(
    `you become the dealmaker of '${deal.title}' for its budget of $3,200.00.`,
  );
  await carol.page.keyboard.press('Escape');
  expect((await dealAs(carol, deal.id)).dealmaker).toBeNull();

  // Alice cancels her request to Dave, after a question.
  await alice.page.goto(`/deals/${deal.id}`);
  await alice.page.getByRole('button', { name: 'Request a Dealmaker' }).click();
  const sent = alice.page
    .getByRole('region', { name: 'Sent Requests' })
    .getByRole('listitem')
    .filter({ hasText: `@${dave.user.username}` });
  await sent.getByRole('button', { name: 'Cancel Request' }).click();
  await expect(confirmation(alice.page)).toContainText(
    `Cancel your request asking @${dave.user.username} to be the dealmaker`,
  );
  await confirmation(alice.page).getByRole('button', { name: 'Keep it' }).click();
  await expect(sent).toHaveCount(1);
  await sent.getByRole('button', { name: 'Cancel Request' }).click();
  await confirmAction(alice.page, 'Cancel Request');
  await expect(alice.page.getByText('Request canceled successfully!')).toBeVisible();
  await expect(sent).toHaveCount(0);

  // Carol accepts: she is the dealmaker.
  await carol.page.reload();
  await carol.page.getByRole('button', { name: 'View Incoming Requests' }).click();
  await carol.page.getByRole('article', { name: deal.title }).getByRole('button', { name: 'Accept' }).click();
  await confirmAction(carol.page, 'Accept');
  expect((await dealAs(carol, deal.id)).dealmaker).toBe(carol.user.username);
});
