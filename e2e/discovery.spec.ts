import type { Locator, Page, WebSocket } from '@playwright/test';
import {
  createDeal,
  dealWithDealmaker,
  hireDealmaker,
  joinDeal,
  placeBid,
  sendMessage,
} from './support/deals';
import { expect, test } from './support/fixtures';
import { horizontalOverflow, seriousAxeViolations } from './support/page-checks';

// Finding deals and following one's bids: a dealmaker filters the Deals page by status, budget and
// keywords and sorts it, all of it in the address (Back restores the search before); saves the search
// with alerts; another user posts a deal it matches, and the bell and the saved search say so live. The
// dealmaker bids with a proposal and a delivery estimate; the creator sees them with the bidder's record
// and that the price is above the budget; My Bids follows the bid from pending to won, and another
// bidder's to lost.

/**
 * A keyword no other deal holds (nor comes close to: the search also finds near spellings), of letters
 * only, so that the search reads it as one word.
 */
function uniqueKeyword(): string {
  const letters = 'bcdfghjkmnpqrtvwxz';
  let word = 'qx';
  for (let i = 0; i < 9; i++) word += letters[Math.floor(Math.random() * letters.length)];
  return word;
}

/** Opens a page and waits until its realtime connection is open: only from then on does it hear live updates. */
async function gotoLive(page: Page, url: string) {
  let connected = false;
  const onSocket = (socket: WebSocket) => {
    if (!socket.url().includes('/socket.io/')) return;
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      if (text.startsWith('40')) connected = true;
    });
  };
  page.on('websocket', onSocket);
  try {
    await page.goto(url);
    await expect.poll(() => connected, { timeout: 10_000 }).toBe(true);
  } finally {
    page.off('websocket', onSocket);
  }
}

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const filterBar = (page: Page) => page.getByRole('region', { name: 'Filter deals' });
const chip = (page: Page, name: string) => filterBar(page).getByRole('button', { name, exact: true });
const savedSearches = (page: Page) => page.getByRole('region', { name: 'Saved searches' });
const savedSearch = (page: Page, name: string) =>
  savedSearches(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) });
/** A bid in the deal page's Bids list (a toggle button for a dealer). */
const bidOf = (page: Page, username: string) =>
  page
    .getByRole('region', { name: 'Bids' })
    .locator('[data-bid-id]')
    .filter({ has: page.getByText(`@${username}`, { exact: true }) });
/** A bid on My Bids, by its deal's title, and what became of it. */
const myBid = (page: Page, title: string) => page.getByRole('article', { name: title });
const outcomeOf = (bid: Locator) => bid.locator('[data-outcome]');
const cardTitles = (page: Page) => page.locator('main article h2');

test('filter, sort and save a search; a new match is told live; bid with a proposal; My Bids follows it', async ({
  alice,
  bob,
  carol,
  dave,
  newActor,
}) => {
  test.setTimeout(180_000);
  const kw = uniqueKeyword();
  const a = alice.page;
  const about = (what: string) => `Looking for a ${kw} partner: ${what}.`;

  // Bob's deals with the keyword: two open or choosing within $1,000–$5,000, one above it, one finalized.
  const coldStorage = await createDeal(bob, {
    title: `Cold storage ${kw}`,
    description: about('a cold store near the port'),
    budget: 3000,
    timeline: '2 months',
  });
  const freezerTrucks = await createDeal(bob, {
    title: `Freezer trucks ${kw}`,
    description: about('six freezer trucks'),
    budget: 4000,
    timeline: '3 months',
  });
  await joinDeal(carol, freezerTrucks.id);
  const warehouse = await createDeal(bob, {
    title: `Warehouse ${kw}`,
    description: about('a warehouse'),
    budget: 9000,
    timeline: '6 months',
  });
  const palletRacks = await createDeal(bob, {
    title: `Pallet racks ${kw}`,
    description: about('pallet racks'),
    budget: 2000,
    timeline: '1 month',
  });
  const erin = await newActor('erin');
  await joinDeal(carol, palletRacks.id);
  await hireDealmaker(bob, erin, palletRacks.id);

  // Alice filters: the stages, the budget, the keyword.
  await gotoLive(a, '/deals');
  await chip(a, 'Open').click();
  await expect(chip(a, 'Open')).toHaveAttribute('aria-pressed', 'true');
  await chip(a, 'Seeking dealmaker').click();
  await expect(chip(a, 'Seeking dealmaker')).toHaveAttribute('aria-pressed', 'true');
  await expect(chip(a, 'Finalized')).toHaveAttribute('aria-pressed', 'false');
  await expect(a).toHaveURL(/\/deals\?status=open%2Cchoosing$/);
  await filterBar(a).getByLabel('Minimum budget ($)').fill('1000');
  await filterBar(a).getByLabel('Maximum budget ($)').fill('5,000');
  await expect(a).toHaveURL(/\/deals\?status=open%2Cchoosing&minBudget=1000&maxBudget=5000$/);
  await a.getByRole('searchbox', { name: 'Search deals' }).fill(kw);
  const filtered = `/deals?q=${kw}&status=open%2Cchoosing&minBudget=1000&maxBudget=5000`;
  await expect(a).toHaveURL(new RegExp(`${filtered.replace(/[?]/g, '\\?')}$`));
  await expect(a.getByText('2 deals match', { exact: true })).toBeVisible();
  await expect(a.getByText(`Showing deals matching “${kw}”`)).toBeVisible();
  await expect(a.getByRole('article', { name: coldStorage.title })).toBeVisible();
  await expect(a.getByRole('article', { name: freezerTrucks.title })).toBeVisible();
  await expect(a.getByRole('article', { name: warehouse.title })).toHaveCount(0);
  await expect(a.getByRole('article', { name: palletRacks.title })).toHaveCount(0);
  // The keyword is marked in each card's excerpt of the description.
  await expect(a.getByRole('article', { name: coldStorage.title }).locator('mark')).toHaveText([kw]);
  // Relevance ranks a keyword search.
  await expect(filterBar(a).getByLabel('Sort by')).toHaveValue('relevance');
  expect(await seriousAxeViolations(a)).toEqual([]);

  // Sorted by budget, highest first; the address holds it all.
  await filterBar(a).getByLabel('Sort by').selectOption({ label: 'Highest budget' });
  await expect(a).toHaveURL(new RegExp(`${filtered.replace(/[?]/g, '\\?')}&sort=budget_desc$`));
  await expect(cardTitles(a)).toHaveText([freezerTrucks.title, coldStorage.title]);

  // Back: the search as it was before the order was chosen.
  await a.goBack();
  await expect(a).toHaveURL(new RegExp(`${filtered.replace(/[?]/g, '\\?')}$`));
  await expect(filterBar(a).getByLabel('Sort by')).toHaveValue('relevance');
  await expect(chip(a, 'Open')).toHaveAttribute('aria-pressed', 'true');
  // The same bound, as she typed it.
  await expect(filterBar(a).getByLabel('Maximum budget ($)')).toHaveValue('5,000');
  await expect(a.getByRole('searchbox', { name: 'Search deals' })).toHaveValue(kw);
  await expect(a.getByText('2 deals match', { exact: true })).toBeVisible();

  // She saves it, with alerts.
  await a.getByRole('button', { name: 'Save this search', exact: true }).click();
  const save = a.getByRole('dialog', { name: 'Save this search' });
  await expect(save.getByLabel('Name')).toHaveValue(kw);
  await expect(save.getByLabel('Alert me about new matches')).toBeChecked();
  await expect(save).toContainText(`“${kw}” · Open, Seeking dealmaker · $1,000.00 – $5,000.00`);
  expect(await seriousAxeViolations(a)).toEqual([]);
  const saved = a.waitForRequest(
    (request) => request.url().endsWith('/api/saved-searches') && request.method() === 'POST',
  );
  await save.getByRole('button', { name: 'Save search', exact: true }).click();
  expect((await saved).postDataJSON()).toEqual({
    name: kw,
    query: { q: kw, status: ['open', 'choosing'], minBudget: 1000, maxBudget: 5000 },
    alert: true,
  });
  await expect(save).toBeHidden();
  await expect(a.getByText(`Search “${kw}” saved.`, { exact: true })).toBeVisible();
  const row = savedSearch(a, kw);
  await expect(row).toContainText(`“${kw}” · Open, Seeking dealmaker · $1,000.00 – $5,000.00`);
  await expect(row.getByLabel('Alert me')).toBeChecked();
  await expect(row.locator('[data-new-matches]')).toHaveCount(0);
  await expect(bell(a)).toHaveAccessibleName('Notifications');

  // Bob posts a deal it matches: Alice's bell, her saved search and her list say so without a reload.
  const coldRoom = await createDeal(bob, {
    title: `Cold room ${kw}`,
    description: about('a cold room for fruit'),
    budget: 2500,
    timeline: '5 weeks',
  });
  await expect(bell(a)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(row.locator('[data-new-matches]')).toHaveText('1 new match');
  await expect(a.getByRole('article', { name: coldRoom.title })).toBeVisible();
  await expect(a.getByText('3 deals match', { exact: true })).toBeVisible();
  await bell(a).click();
  const panel = a.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByRole('listitem').first()).toContainText(
    `A new deal matches your saved search "${kw}": "${coldRoom.title}".`,
  );
  await a.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  // The focus is back on the bell before she types elsewhere.
  await expect(bell(a)).toBeFocused();

  // Opening the saved search shows its search and counts its matches as seen.
  await a.getByRole('searchbox', { name: 'Search deals' }).fill('');
  await expect(a).toHaveURL(/\/deals\?status=open%2Cchoosing&minBudget=1000&maxBudget=5000$/);
  await row.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(a).toHaveURL(new RegExp(`${filtered.replace(/[?]/g, '\\?')}$`));
  await expect(a.getByRole('searchbox', { name: 'Search deals' })).toHaveValue(kw);
  await expect(row.locator('[data-new-matches]')).toHaveCount(0);

  // On a phone the filters, the saved search and the cards fit the screen.
  await a.setViewportSize({ width: 360, height: 800 });
  expect(await horizontalOverflow(a)).toMatchObject({ overflow: 0 });
  await a.setViewportSize({ width: 1280, height: 800 });

  // Alice bids on the cold store: above its budget, with a proposal and 5 days.
  const proposal = 'I know three cold-store operators at the port and can close within a week.';
  const card = a.getByRole('article', { name: coldStorage.title });
  await card.getByRole('button', { name: 'Bid as Dealmaker' }).click();
  const bidDialog = a.getByRole('dialog', { name: 'Bid as Dealmaker' });
  await bidDialog.getByLabel('Price ($)').fill('3500');
  await bidDialog.getByLabel('Proposal (optional)').fill(proposal);
  await bidDialog.getByLabel('Delivery estimate in days (optional)').fill('5');
  expect(await seriousAxeViolations(a)).toEqual([]);
  const bid = a.waitForRequest(
    (request) => request.url().endsWith('/api/bidding/create') && request.method() === 'POST',
  );
  await bidDialog.getByRole('button', { name: 'Place Bid', exact: true }).click();
  expect((await bid).postDataJSON()).toEqual({
    dealId: coldStorage.id,
    price: 3500,
    proposal,
    deliveryDays: 5,
  });
  await expect(bidDialog).toBeHidden();
  await expect(a.getByText('Bid created successfully!')).toBeVisible();
  await expect(card.getByText('Your bid: $3,500.00')).toBeVisible();

  // Dave bids too, within the budget; Carol joins as the counterpart.
  await placeBid(dave, coldStorage.id, 2800);
  await joinDeal(carol, coldStorage.id);

  // Bob, the creator, sees the proposal, the estimate, the bidder's record and the above-budget flag.
  const b = bob.page;
  await gotoLive(b, `/deals/${coldStorage.id}`);
  const alicesBid = bidOf(b, alice.user.username);
  await expect(alicesBid).toContainText('$3,500.00');
  await expect(alicesBid.locator('[data-bid-proposal]')).toHaveText(proposal);
  await expect(alicesBid.getByText('Delivery in 5 days', { exact: true })).toBeVisible();
  await expect(
    alicesBid.getByText('No ratings yet · 0 reviews · 0 completed deals', { exact: true }),
  ).toBeVisible();
  await expect(alicesBid.getByText('Above budget', { exact: true })).toBeVisible();
  await expect(bidOf(b, dave.user.username).getByText('Above budget')).toHaveCount(0);
  expect(await seriousAxeViolations(b)).toEqual([]);

  // My Bids: Alice's bid is pending, not selected.
  await a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Bids' }).click();
  await expect(a).toHaveURL(/\/bids$/);
  await expect(a.getByRole('heading', { level: 1, name: 'My Bids' })).toBeVisible();
  const alicesEntry = myBid(a, coldStorage.title);
  await expect(outcomeOf(alicesEntry)).toHaveText('Pending');
  await expect(alicesEntry.locator('[data-selection-state]')).toHaveText('Not selected');
  await expect(alicesEntry).toContainText('$3,500.00');
  await expect(alicesEntry).toContainText(proposal);
  await expect(alicesEntry.getByText('Delivery in 5 days', { exact: true })).toBeVisible();
  await expect(alicesEntry.getByRole('link', { name: coldStorage.title })).toHaveAttribute(
    'href',
    `/deals/${coldStorage.id}`,
  );
  expect(await seriousAxeViolations(a)).toEqual([]);
  const d = dave.page;
  await gotoLive(d, '/bids');
  await expect(outcomeOf(myBid(d, coldStorage.title))).toHaveText('Pending');

  // Bob selects Alice's bid: her page follows.
  await alicesBid.click();
  await expect(alicesBid).toHaveAttribute('data-selection', 'creator');
  await expect(outcomeOf(alicesEntry)).toHaveText('Selected by one dealer');
  await expect(alicesEntry.locator('[data-selection-state]')).toHaveText('Selected by the creator');

  // Carol selects it too: the deal is finalized; Alice won, Dave lost.
  const c = carol.page;
  await c.goto(`/deals/${coldStorage.id}`);
  await bidOf(c, alice.user.username).click();
  await expect(c.getByText(`Deal finalized with ${alice.user.username} as dealmaker.`)).toBeVisible();
  await expect(outcomeOf(alicesEntry)).toHaveText('Won');
  await expect(outcomeOf(myBid(d, coldStorage.title))).toHaveText('Lost');

  // On a phone My Bids fits the screen.
  await a.setViewportSize({ width: 360, height: 800 });
  expect(await horizontalOverflow(a)).toMatchObject({ overflow: 0 });
});

test('an empty search says which filter to clear, and clears it', async ({ alice }) => {
  const kw = uniqueKeyword();
  await createDeal(alice, {
    title: `Solar panels ${kw}`,
    description: `Looking for a ${kw} partner.`,
    budget: 1200,
    timeline: '1 month',
  });
  const page = alice.page;
  await page.goto(`/deals?q=${kw}&status=completed&maxBudget=100`);
  await expect(page.getByText('No deals match — clear the budget filter?', { exact: true })).toBeVisible();
  await expect(page.getByText('0 deals match', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Clear budget filter', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/deals\\?q=${kw}&status=completed$`));
  await expect(page.getByText('No deals match — clear the status filter?', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Clear status filter', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/deals\\?q=${kw}$`));
  await expect(page.getByText('1 deal matches', { exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: `Solar panels ${kw}` })).toBeVisible();
  // Back: the search before, and its empty state again.
  await page.goBack();
  await expect(page.getByText('No deals match — clear the status filter?', { exact: true })).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test('a chat message raises no toast while its chat is on screen, and one when it is not', async ({
  alice,
  bob,
  carol,
}) => {
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    {
      title: `Chat toasts ${uniqueKeyword()}`,
      description: 'Talking it through.',
      budget: 800,
      timeline: '1 week',
    },
  );
  const page = alice.page;
  const toasts = page.locator('[data-sonner-toast]');
  const chat = page.getByRole('log', { name: 'Chat history' });
  const unread = async () => {
    const response = await alice.context.request.get('/api/notifications?limit=1', {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    return ((await response.json()) as { unreadCount: number }).unreadCount;
  };
  const unreadBefore = await unread();
  await gotoLive(page, `/deals/${deal.id}`);
  await chat.scrollIntoViewIfNeeded();

  // The chat is in front of her: the message shows there, and nowhere else.
  await sendMessage(bob, deal.id, 'The contract is in your inbox.');
  await expect(chat.getByText('The contract is in your inbox.')).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(toasts).toHaveCount(0);
  // She read it there: the chat's notification is read with it.
  await expect.poll(unread).toBe(unreadBefore);

  // Scrolled away from the chat, the next message is toasted.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(chat).not.toBeInViewport();
  await sendMessage(bob, deal.id, 'Did you sign it?');
  await expect(toasts).toHaveCount(1);
});
