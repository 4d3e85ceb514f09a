import type { Locator, Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import { type Actor, expect, test } from './support/fixtures';

type DealInput = { title: string; description: string; budget: number; timeline: string };

const money = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

let tagCounter = 0;
/** A word no other deal contains, to find a journey's deals with the Deals page's keyword search. */
function uniqueTag(): string {
  tagCounter++;
  return `t${Date.now().toString(36)}${process.pid.toString(36)}${tagCounter}`;
}

function newDeal(subject: string): DealInput & { tag: string } {
  const tag = uniqueTag();
  return {
    tag,
    title: `${subject} ${tag}`,
    description: `Looking for a partner for ${subject.toLowerCase()}.`,
    budget: 5000,
    timeline: '3 months',
  };
}

/** Creates a deal through the Create Deal modal on /deals; returns its id. */
async function createDeal(page: Page, deal: DealInput): Promise<number> {
  await page.goto('/deals');
  await expect(page.getByRole('heading', { name: 'Deals', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create Deal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Deal' });
  await dialog.getByLabel('Title').fill(deal.title);
  await dialog.getByLabel('Description').fill(deal.description);
  await dialog.getByLabel('Budget ($)').fill(String(deal.budget));
  await dialog.getByLabel('Timeline').fill(deal.timeline);
  const created = page.waitForResponse(
    (response) => response.url().endsWith('/api/deals/create-deal') && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Create Deal' }).click();
  const response = await created;
  expect(response.ok()).toBe(true);
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Deal created successfully!')).toBeVisible();
  return ((await response.json()) as { id: number }).id;
}

/** The deal's card on /deals, found with the keyword search. */
async function dealCard(page: Page, deal: { title: string; tag: string }): Promise<Locator> {
  await page.goto(`/deals?q=${deal.tag}`);
  const card = page.getByRole('article', { name: deal.title });
  await expect(card).toBeVisible();
  return card;
}

async function placeBid(page: Page, deal: { title: string; tag: string }, price: number) {
  const card = await dealCard(page, deal);
  await card.getByRole('button', { name: 'Bid as Dealmaker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bid as Dealmaker' });
  await dialog.getByLabel('Price ($)').fill(String(price));
  await dialog.getByRole('button', { name: 'Place Bid' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Bid created successfully!')).toBeVisible();
  await expect(card.getByText(`Your bid: ${money(price)}`)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Update Bid' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Delete Bid' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Bid as Dealmaker' })).toHaveCount(0);
}

/** A bid in the deal detail view's Bids list (a toggle button for a dealer). */
const bidOf = (page: Page, username: string) =>
  page
    .getByRole('region', { name: 'Bids' })
    .locator('[data-bid-id]')
    .filter({ has: page.getByText(`@${username}`, { exact: true }) });

/** The value beside a label in a description list. */
const valueBeside = (scope: Locator, label: string) => scope.locator(`dt:text-is("${label}") + dd`);

async function openRequestDialog(page: Page) {
  await page.getByRole('button', { name: 'Request a Dealmaker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a Dealmaker' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Searches a user in the Request-a-Dealmaker modal; returns their result row. */
async function findCandidate(dialog: Locator, username: string) {
  await dialog.getByLabel('Search users by username or name').fill(username);
  await dialog.getByRole('button', { name: 'Search' }).click();
  const row = dialog
    .getByRole('list', { name: 'Users' })
    .getByRole('listitem')
    .filter({ has: dialog.page().getByText(`@${username}`, { exact: true }) });
  await expect(row).toBeVisible();
  return row;
}

/** A dealer asks a user to be the dealmaker, through the search and the Send Request dialog. */
async function requestDealmaker(dealer: Actor, dealId: number, receiver: Actor) {
  const { page } = dealer;
  await page.goto(`/deals/${dealId}`);
  const dialog = await openRequestDialog(page);
  await expect(dialog.getByText('No requests sent for this deal yet.')).toBeVisible();
  const row = await findCandidate(dialog, receiver.user.username);
  await expect(row.getByText(receiver.user.full_name, { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Send Request' }).click();

  const send = page.getByRole('dialog', { name: `Send Request to ${receiver.user.username}` });
  await expect(send).toBeVisible();
  await expect(send.getByLabel('Message')).toHaveValue(
    'I would like to request you to be a dealmaker for my deal.',
  );
  await send.getByRole('button', { name: 'Confirm & Send' }).click();
  await expect(send).toBeHidden();
  await expect(page.getByText('Request sent successfully!')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Request Sent' })).toBeDisabled();

  const sent = dialog.getByRole('region', { name: 'Sent Requests' }).getByRole('listitem');
  await expect(sent).toHaveCount(1);
  await expect(valueBeside(sent, 'To:')).toHaveText(`@${receiver.user.username}`);
  await expect(valueBeside(sent, 'From:')).toHaveText(`@${dealer.user.username}`);
  await expect(sent.getByText('I would like to request you to be a dealmaker for my deal.')).toBeVisible();
  await expect(sent.getByText('Pending', { exact: true })).toBeVisible();
  return dialog;
}

/** The dealmaker panel's incoming requests modal, with the one request for the deal. */
async function openIncomingRequest(page: Page, dealTitle: string) {
  await page.goto('/dealmaker-panel');
  await expect(page.getByRole('heading', { name: 'Dealmaker Panel', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'View Incoming Requests' }).click();
  const dialog = page.getByRole('dialog', { name: 'Incoming Dealmaker Requests' });
  await expect(dialog).toBeVisible();
  const request = dialog.getByRole('article', { name: dealTitle });
  await expect(request).toBeVisible();
  return { dialog, request };
}

test('two dealers choose a dealmaker among the bids', async ({ alice, bob, carol, dave }) => {
  test.slow();
  const deal = newDeal('Organic coffee distribution');
  const carolPrice = 4200;
  const davePrice = 4650.5;

  // Alice creates the deal; it is open, nobody has joined.
  const dealId = await createDeal(alice.page, deal);
  const bobCard = await dealCard(bob.page, deal);
  await expect(bobCard.getByText('No one has joined yet')).toBeVisible();
  await expect(bobCard.getByText(money(deal.budget))).toBeVisible();
  await expect(bobCard.getByText(deal.timeline)).toBeVisible();
  await expect(bobCard.getByRole('link', { name: `@${alice.user.username}` })).toBeVisible();

  // Bob joins it while Carol and Dave bid, all at once.
  await Promise.all([
    (async () => {
      await bobCard.getByRole('button', { name: 'Join Deal' }).click();
      await expect(bob.page.getByText('Joined deal successfully!')).toBeVisible();
      await expect(bobCard.getByRole('link', { name: `@${bob.user.username}` })).toBeVisible();
      await expect(bobCard.getByText('No one has joined yet')).toHaveCount(0);
      await expect(bobCard.getByRole('button', { name: 'Leave Deal' })).toBeVisible();
    })(),
    placeBid(carol.page, deal, carolPrice),
    placeBid(dave.page, deal, davePrice),
  ]);

  // Alice opens the deal from My Deals and selects Carol's bid: blue, the creator's choice.
  await alice.page.goto('/deals');
  await alice.page.getByRole('button', { name: 'My Deals' }).click();
  const myDeals = alice.page.getByRole('dialog', { name: 'My Deals' });
  await myDeals.getByRole('article', { name: deal.title }).getByRole('button', { name: 'View' }).click();
  await expect(alice.page).toHaveURL(new RegExp(`/deals/${dealId}$`));
  await expect(alice.page.getByRole('heading', { name: deal.title, level: 1 })).toBeVisible();
  await expect(bidOf(alice.page, carol.user.username)).toContainText(money(carolPrice));
  await expect(bidOf(alice.page, dave.user.username)).toContainText(money(davePrice));
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('data-selection', 'none');
  await bidOf(alice.page, carol.user.username).click();
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('data-selection', 'creator');
  await expect(bidOf(alice.page, carol.user.username)).toHaveClass(/\bborder-blue-500\b/);
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('aria-pressed', 'true');
  await expect(bidOf(alice.page, dave.user.username)).toHaveAttribute('data-selection', 'none');
  // A second click unselects it; a third selects it again.
  await bidOf(alice.page, carol.user.username).click();
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('data-selection', 'none');
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('aria-pressed', 'false');
  await bidOf(alice.page, carol.user.username).click();
  await expect(bidOf(alice.page, carol.user.username)).toHaveAttribute('data-selection', 'creator');

  // Bob selects Dave's bid: yellow, the counterpart's choice; Carol's stays the creator's.
  await bob.page.goto(`/deals/${dealId}`);
  await expect(bidOf(bob.page, carol.user.username)).toHaveAttribute('data-selection', 'creator');
  await bidOf(bob.page, dave.user.username).click();
  await expect(bidOf(bob.page, dave.user.username)).toHaveAttribute('data-selection', 'counterpart');
  await expect(bidOf(bob.page, dave.user.username)).toHaveClass(/\bborder-yellow-400\b/);
  await expect(bidOf(bob.page, carol.user.username)).toHaveAttribute('data-selection', 'creator');

  // Bob switches to Carol's bid: both dealers chose it, and the deal is finalized.
  await bidOf(bob.page, carol.user.username).click();
  const bobFinalized = bob.page.getByRole('region', { name: 'Deal Finalized' });
  await expect(bobFinalized).toBeVisible();
  await expect(bob.page.getByText(`Deal finalized with ${carol.user.username} as dealmaker.`)).toBeVisible();

  // Alice reloads her page: Carol is the dealmaker, the budget is Carol's price, the bids are gone.
  await alice.page.reload();
  const finalized = alice.page.getByRole('region', { name: 'Deal Finalized' });
  await expect(finalized).toBeVisible();
  await expect(valueBeside(finalized, 'Dealmaker')).toHaveText(`@${carol.user.username}`);
  await expect(valueBeside(finalized, 'Final Budget')).toHaveText(money(carolPrice));
  await expect(valueBeside(alice.page.getByRole('main'), 'Budget')).toHaveText(money(carolPrice));
  await expect(valueBeside(alice.page.getByRole('main'), 'Deal Maker')).toContainText(
    `@${carol.user.username}`,
  );
  await expect(alice.page.getByRole('region', { name: 'Bids' })).toHaveCount(0);
  await expect(alice.page.locator('[data-bid-id]')).toHaveCount(0);
  await expect(alice.page.getByRole('button', { name: 'Request a Dealmaker' })).toHaveCount(0);

  // Dave's bid was removed: only Carol's remains, and Dave's card no longer offers bidding.
  const bids = await alice.context.request.get(`/api/bidding/deal/${dealId}`);
  expect(bids.ok()).toBe(true);
  const remaining = (await bids.json()) as Array<{ dealmaker: string; price: number }>;
  expect(remaining.map((bid) => bid.dealmaker)).toEqual([carol.user.username]);
  expect(remaining[0]?.price).toBe(carolPrice);
  const daveCard = await dealCard(dave.page, deal);
  await expect(daveCard.getByRole('link', { name: `@${carol.user.username}` })).toBeVisible();
  await expect(daveCard.getByText(/Your bid/)).toHaveCount(0);
  await expect(daveCard.getByRole('button')).toHaveCount(0);
});

test('a bidder can change and withdraw a bid from the deal card', async ({ alice, carol }) => {
  test.slow();
  const deal = newDeal('Solar panel import');
  await createDeal(alice.page, deal);

  const aliceCard = await dealCard(alice.page, deal);
  await expect(aliceCard.getByText('No one has joined yet')).toBeVisible();
  await expect(aliceCard.getByRole('button', { name: 'Delete Deal' })).toBeVisible();
  await expect(aliceCard.getByRole('button', { name: 'Join Deal' })).toHaveCount(0);
  await expect(aliceCard.getByRole('button', { name: 'Bid as Dealmaker' })).toHaveCount(0);

  const card = await dealCard(carol.page, deal);
  await expect(card.getByRole('button', { name: 'Join Deal' })).toBeVisible();
  await placeBid(carol.page, deal, 800);
  // A bidder cannot also join the deal.
  await expect(card.getByRole('button', { name: 'Join Deal' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Update Bid' }).click();
  const dialog = carol.page.getByRole('dialog', { name: 'Update Bid' });
  await expect(dialog.getByLabel('Price ($)')).toHaveValue('800');
  await dialog.getByLabel('Price ($)').fill('725.25');
  await dialog.getByRole('button', { name: 'Update Bid' }).click();
  await expect(dialog).toBeHidden();
  await expect(carol.page.getByText('Bid updated successfully!')).toBeVisible();
  await expect(card.getByText(`Your bid: ${money(725.25)}`)).toBeVisible();

  await card.getByRole('button', { name: 'Delete Bid' }).click();
  await expect(confirmation(carol.page)).toContainText(
    `Delete your bid of ${money(725.25)} on '${deal.title}'.`,
  );
  await confirmAction(carol.page, 'Delete Bid');
  await expect(carol.page.getByText('Bid deleted successfully!')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Bid as Dealmaker' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Join Deal' })).toBeVisible();
  await expect(card.getByText(/Your bid/)).toHaveCount(0);
});

test('a requested dealmaker accepts from the dealmaker panel', async ({ alice, newActor }) => {
  test.slow();
  const erin = await newActor('erin');
  const deal = newDeal('Textile sourcing');
  const dealId = await createDeal(alice.page, deal);

  await requestDealmaker(alice, dealId, erin);

  // Erin has no deal yet; the request is waiting in the panel.
  await erin.page.goto('/dealmaker-panel');
  await expect(erin.page.getByText('You are not the dealmaker of any deal yet')).toBeVisible();
  const { dialog, request } = await openIncomingRequest(erin.page, deal.title);
  await expect(request.getByText(deal.description)).toBeVisible();
  await expect(valueBeside(request, 'Budget:')).toHaveText(money(deal.budget));
  await expect(valueBeside(request, 'Creator:')).toHaveText(`@${alice.user.username}`);
  await expect(valueBeside(request, 'Counterpart:')).toHaveText('N/A');
  await expect(request.getByText('I would like to request you to be a dealmaker for my deal.')).toBeVisible();
  await expect(request.getByText(`from @${alice.user.username}`)).toBeVisible();

  await request.getByRole('button', { name: 'Accept' }).click();
  await confirmAction(erin.page, 'Accept');
  await expect(dialog).toBeHidden();
  const card = erin.page.getByRole('article', { name: deal.title });
  await expect(card).toBeVisible();
  await expect(valueBeside(card, 'Budget')).toHaveText(money(deal.budget));
  await card.getByRole('button', { name: 'View Deal' }).click();
  await expect(erin.page).toHaveURL(new RegExp(`/deals/${dealId}$`));
  await expect(erin.page.getByText('You are the dealmaker')).toBeVisible();

  // The request is answered: nothing left in Erin's incoming requests.
  await erin.page.goto('/dealmaker-panel');
  await erin.page.getByRole('button', { name: 'View Incoming Requests' }).click();
  await expect(erin.page.getByText('You have no incoming dealmaker requests.')).toBeVisible();

  // Alice's deal now has Erin as its dealmaker.
  await alice.page.reload();
  const finalized = alice.page.getByRole('region', { name: 'Deal Finalized' });
  await expect(valueBeside(finalized, 'Dealmaker')).toHaveText(`@${erin.user.username}`);
  await expect(alice.page.getByRole('button', { name: 'Request a Dealmaker' })).toHaveCount(0);
});

test('a requested dealmaker rejects, and the dealer sees the request as rejected', async ({
  alice,
  newActor,
}) => {
  test.slow();
  const frank = await newActor('frank');
  const deal = newDeal('Warehouse automation');
  const dealId = await createDeal(alice.page, deal);

  await requestDealmaker(alice, dealId, frank);

  const { request } = await openIncomingRequest(frank.page, deal.title);
  await request.getByRole('button', { name: 'Reject' }).click();
  await confirmAction(frank.page, 'Reject');
  await expect(frank.page.getByText('You have no incoming dealmaker requests.')).toBeVisible();
  await frank.page.keyboard.press('Escape');
  await expect(frank.page.getByText('You are not the dealmaker of any deal yet')).toBeVisible();

  // Alice reloads: the request shows as rejected and can no longer be canceled nor sent again.
  await alice.page.reload();
  const dialog = await openRequestDialog(alice.page);
  const sent = dialog.getByRole('region', { name: 'Sent Requests' }).getByRole('listitem');
  await expect(sent).toHaveCount(1);
  await expect(valueBeside(sent, 'To:')).toHaveText(`@${frank.user.username}`);
  await expect(sent.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(sent.getByRole('button', { name: 'Cancel Request' })).toBeDisabled();
  const row = await findCandidate(dialog, frank.user.username);
  await expect(row.getByRole('button', { name: 'Request Sent' })).toBeDisabled();

  // The deal still has no dealmaker.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(valueBeside(alice.page.getByRole('main'), 'Deal Maker')).toContainText('Not yet assigned');
});
