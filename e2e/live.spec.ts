import type { Locator, Page, WebSocket } from '@playwright/test';
import { createDeal, joinDeal, uniqueWord } from './support/deals';
import { type Actor, expect, test } from './support/fixtures';

// Live chat, typing indicators and live updates: several users with the same deal (or the Deals
// page) open at once, each seeing the others' actions without reloading.

const money = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

function newDeal(subject: string) {
  return {
    title: `${subject} ${uniqueWord('live')}`,
    description: `Talking ${subject.toLowerCase()} through live.`,
    budget: 2500,
    timeline: '6 weeks',
  };
}

/** Records a measured latency on the test (shown in the report) and in the output. */
function recordLatency(what: string, ms: number) {
  test.info().annotations.push({ type: 'latency', description: `${what}: ${ms} ms` });
  console.log(`[latency] ${what}: ${ms} ms`);
}

/**
 * How long after the start of `action` the `arrival` check passed. The check runs from the same
 * moment as the action (not after it returns), so the time is that of the other user's screen.
 */
async function timeUntil(action: () => Promise<void>, arrival: () => Promise<void>): Promise<number> {
  const startedAt = Date.now();
  let arrivedAt = Number.NaN;
  await Promise.all([
    arrival().then(() => {
      arrivedAt = Date.now();
    }),
    action(),
  ]);
  return arrivedAt - startedAt;
}

/**
 * Opens a page and waits until its realtime connection is open (Socket.IO's CONNECT answer) and,
 * with `dealRoom`, until the server acknowledged joining the deal's room (which the chat panel asks
 * for), with `dealsFeed` until the page subscribed to the deals feed (a list of deals does): only from
 * then on can the page hear live updates, and its typing reach the others.
 */
async function gotoLive(page: Page, url: string, options: { dealRoom?: boolean; dealsFeed?: boolean } = {}) {
  let connected = false;
  let joinedRoom = false;
  let subscribed = false;
  const onSocket = (socket: WebSocket) => {
    if (!socket.url().includes('/socket.io/')) return;
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      // An Engine.IO message (4) carrying a Socket.IO CONNECT (0) or an acknowledgement (3).
      if (text.startsWith('40')) connected = true;
      else if (/^43\d*\[\{"ok":true\}\]$/.test(text)) joinedRoom = true;
    });
    socket.on('framesent', ({ payload }) => {
      if (String(payload).includes('"deals-feed:subscribe"')) subscribed = true;
    });
  };
  page.on('websocket', onSocket);
  try {
    await page.goto(url);
    await expect.poll(() => connected, { message: `realtime connection of ${url}` }).toBe(true);
    if (options.dealRoom) {
      await expect.poll(() => joinedRoom, { message: `deal room joined on ${url}` }).toBe(true);
    }
    if (options.dealsFeed) {
      await expect.poll(() => subscribed, { message: `deals feed subscribed on ${url}` }).toBe(true);
    }
  } finally {
    page.off('websocket', onSocket);
  }
}

async function openDeal(
  page: Page,
  deal: { id: number; title: string },
  options: { dealRoom?: boolean } = {},
) {
  await gotoLive(page, `/deals/${deal.id}`, options);
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
}

const messagesPanel = (page: Page) => page.getByRole('region', { name: 'Deal Messages' });
const messageInput = (panel: Locator) => panel.getByRole('textbox', { name: 'Message' });
const sendButton = (panel: Locator) => panel.getByRole('button', { name: 'Send' });
/** Every message shown in the panel's history (temporary ones included). */
const messageItems = (panel: Locator) =>
  panel.getByRole('log', { name: 'Chat history' }).locator('li[data-message-id]');
/** The message items whose text is exactly `content`. */
const messageWith = (panel: Locator, content: string) =>
  messageItems(panel).filter({ has: panel.page().getByText(content, { exact: true }) });
const typingIndicator = (panel: Locator, who: Actor) => panel.getByText(`${who.user.full_name} is typing…`);

/** A bid in the deal detail view's Bids list. */
const bidOf = (page: Page, username: string) =>
  page
    .getByRole('region', { name: 'Bids' })
    .locator('[data-bid-id]')
    .filter({ has: page.getByText(`@${username}`, { exact: true }) });

/** The value beside a label in a description list. */
const valueBeside = (scope: Locator, label: string) => scope.locator(`dt:text-is("${label}") + dd`);

async function placeBid(bidder: Actor, dealId: number, price: number) {
  const response = await bidder.context.request.post('/api/bidding/create', {
    data: { dealId, price },
    headers: { authorization: `Bearer ${bidder.token}` },
  });
  expect(response.ok(), `bid of ${bidder.user.username}: ${await response.text()}`).toBe(true);
}

test('deal chat: typing indicators, live messages both ways, and only for the deal participants', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(90_000);
  const deal = await createDeal(alice, newDeal('Warehouse lease'));
  await joinDeal(bob, deal.id);

  await Promise.all([
    openDeal(alice.page, deal, { dealRoom: true }),
    openDeal(bob.page, deal, { dealRoom: true }),
  ]);
  const aPanel = messagesPanel(alice.page);
  const bPanel = messagesPanel(bob.page);
  for (const panel of [aPanel, bPanel]) {
    await expect(panel.getByRole('heading', { name: 'Deal Messages' })).toBeVisible();
    await expect(panel.getByText('No messages yet')).toBeVisible();
    await expect(panel.getByText('Start the conversation and discuss your deal!')).toBeVisible();
    await expect(panel.getByText('0/1000')).toBeVisible();
    await expect(sendButton(panel)).toBeDisabled();
  }

  // A types: B sees A typing (A does not see their own indicator), until 3 s after A's last key.
  const first = 'Hi Bob, shall we go over the lease terms?';
  const aInput = messageInput(aPanel);
  await aInput.click();
  const typingShownIn = await timeUntil(
    () => aInput.press(first[0]!),
    () => expect(typingIndicator(bPanel, alice)).toBeVisible(),
  );
  recordLatency('typing indicator shown to B (from A’s first key)', typingShownIn);
  await aInput.pressSequentially(first.slice(1));
  const stoppedAt = Date.now();
  await expect(typingIndicator(aPanel, alice)).toHaveCount(0);
  await expect(aPanel.getByText(`${first.length}/1000`)).toBeVisible();
  await expect(sendButton(aPanel)).toBeEnabled();
  await expect(typingIndicator(bPanel, alice)).toBeVisible();
  await expect(typingIndicator(bPanel, alice)).toBeHidden({ timeout: 4_000 });
  const hiddenAfter = Date.now() - stoppedAt;
  recordLatency('typing indicator hidden on B after A’s last key', hiddenAfter);
  // It is the 3-second pause that ends it, not anything earlier.
  expect(hiddenAfter).toBeGreaterThanOrEqual(2_500);
  expect(hiddenAfter).toBeLessThanOrEqual(4_000);

  // A sends: B has it within a second; A has it exactly once.
  const deliveredIn = await timeUntil(
    () => sendButton(aPanel).click(),
    () => expect(messageWith(bPanel, first)).toBeVisible({ timeout: 1_000 }),
  );
  recordLatency('message A → B (click to visible)', deliveredIn);
  expect(deliveredIn).toBeLessThanOrEqual(1_000);
  await expect(bPanel.getByText('No messages yet')).toHaveCount(0);
  await expect(messageWith(bPanel, first).getByText(alice.user.full_name, { exact: true })).toBeVisible();
  await expect(messageWith(bPanel, first).getByText('Just now')).toBeVisible();
  await expect(messageWith(bPanel, first)).not.toHaveAttribute('data-own');
  await expect(aInput).toHaveValue('');
  await expect(aPanel.getByText('0/1000')).toBeVisible();
  await expect(messageWith(aPanel, first)).toHaveCount(1);
  await expect(messageWith(aPanel, first)).toHaveAttribute('data-own', 'true');
  await expect(messageWith(aPanel, first)).not.toHaveAttribute('data-temporary');
  await expect(messageWith(aPanel, first).getByText('Just now')).toBeVisible();
  await expect(aPanel.getByText('Sending...')).toHaveCount(0);
  await expect(messageItems(aPanel)).toHaveCount(1);

  // B answers (Enter sends): A sees B typing, then the answer, and the indicator goes with it.
  const answer = 'Sure, Alice. Monthly rent first, then the deposit.';
  const bInput = messageInput(bPanel);
  await bInput.click();
  await bInput.pressSequentially(answer);
  await expect(typingIndicator(aPanel, bob)).toBeVisible();
  await expect(typingIndicator(bPanel, bob)).toHaveCount(0);
  const answeredIn = await timeUntil(
    () => bInput.press('Enter'),
    () => expect(messageWith(aPanel, answer)).toBeVisible({ timeout: 1_000 }),
  );
  recordLatency('message B → A (Enter to visible)', answeredIn);
  expect(answeredIn).toBeLessThanOrEqual(1_000);
  await expect(typingIndicator(aPanel, bob)).toBeHidden();
  await expect(messageWith(aPanel, answer).getByText(bob.user.full_name, { exact: true })).toBeVisible();
  await expect(messageWith(bPanel, answer)).toHaveCount(1);
  await expect(messageWith(bPanel, answer)).toHaveAttribute('data-own', 'true');
  // Both panels: the two messages, each once, oldest first.
  for (const panel of [aPanel, bPanel]) {
    await expect(messageItems(panel)).toHaveCount(2);
    await expect(messageItems(panel).locator('p')).toHaveText([first, answer]);
  }

  // The text is trimmed. While it is being sent it shows dimmed with 'Sending...' and the input is
  // disabled; the server's copy then takes its place (one item, no duplicate).
  let releaseSend: () => void = () => {};
  const sendHeld = new Promise<void>((resolve) => {
    releaseSend = resolve;
  });
  await alice.page.route('**/api/messages/send', async (route) => {
    await sendHeld;
    await route.continue();
  });
  await aInput.fill('   hi   ');
  await expect(aPanel.getByText('8/1000')).toBeVisible();
  await expect(sendButton(aPanel)).toBeEnabled();
  await sendButton(aPanel).click();
  const temporary = messageItems(aPanel).filter({ hasText: 'Sending...' });
  await expect(temporary).toHaveCount(1);
  await expect(temporary).toHaveAttribute('data-temporary', 'true');
  await expect(temporary.locator('p')).toHaveJSProperty('textContent', 'hi');
  await expect(aInput).toBeDisabled();
  releaseSend();
  await expect(aPanel.getByText('Sending...')).toHaveCount(0);
  await alice.page.unroute('**/api/messages/send');
  await expect(aInput).toBeEnabled();
  await expect(aInput).toBeFocused();
  const aHi = messageItems(aPanel).last();
  await expect(aHi.locator('p')).toHaveJSProperty('textContent', 'hi');
  await expect(aHi).not.toHaveAttribute('data-temporary');
  await expect(messageItems(aPanel)).toHaveCount(3);
  const bHi = messageItems(bPanel).last();
  await expect(bHi.locator('p')).toHaveJSProperty('textContent', 'hi');
  await expect(messageItems(bPanel)).toHaveCount(3);

  // Whitespace alone cannot be sent, by the button or by Enter.
  await aInput.fill('     ');
  await expect(aPanel.getByText('5/1000')).toBeVisible();
  await expect(sendButton(aPanel)).toBeDisabled();
  await aInput.press('Enter');
  await expect(aInput).toHaveValue('     ');
  await expect(aPanel.getByText('Sending...')).toHaveCount(0);
  await expect(messageItems(aPanel)).toHaveCount(3);

  // The counter goes up to 1000 and the input takes no more.
  await aInput.fill('x'.repeat(1000));
  await expect(aPanel.getByText('1000/1000')).toBeVisible();
  await aInput.press('y');
  await expect(aPanel.getByText('1000/1000')).toBeVisible();
  await expect(aInput).toHaveValue('x'.repeat(1000));
  await aInput.fill('');
  await expect(aPanel.getByText('0/1000')).toBeVisible();
  await expect(sendButton(aPanel)).toBeDisabled();

  // The server holds exactly the three messages, trimmed.
  const history = await alice.context.request.get(`/api/messages/deal/${deal.id}`, {
    headers: { authorization: `Bearer ${alice.token}` },
  });
  expect(history.ok()).toBe(true);
  const stored = (await history.json()) as Array<{ content: string }>;
  expect(stored.map((message) => message.content)).toEqual([first, answer, 'hi']);

  // Still each message once on both sides after all of that.
  for (const panel of [aPanel, bPanel]) {
    await expect(messageWith(panel, first)).toHaveCount(1);
    await expect(messageWith(panel, answer)).toHaveCount(1);
    await expect(messageItems(panel)).toHaveCount(3);
  }

  // An outsider sees the deal but not its chat, and cannot read it through the API either.
  await openDeal(carol.page, deal);
  await expect(carol.page.getByRole('region', { name: 'Participants' })).toBeVisible();
  await expect(messagesPanel(carol.page)).toHaveCount(0);
  await expect(carol.page.getByText('Deal Messages')).toHaveCount(0);
  await expect(carol.page.getByText(first)).toHaveCount(0);
  const outsider = await carol.context.request.get(`/api/messages/deal/${deal.id}`, {
    headers: { authorization: `Bearer ${carol.token}` },
  });
  expect(outsider.status()).toBe(403);
});

test('bid selection shows live to the other dealer, up to the finalized deal', async ({
  alice,
  bob,
  dave,
  newActor,
}) => {
  test.setTimeout(60_000);
  const erin = await newActor('erin');
  const deal = await createDeal(alice, newDeal('Fleet maintenance'));
  await joinDeal(bob, deal.id);
  const davePrice = 2100;
  const erinPrice = 2350;
  await placeBid(dave, deal.id, davePrice);
  await placeBid(erin, deal.id, erinPrice);

  await Promise.all([openDeal(alice.page, deal), openDeal(bob.page, deal)]);
  for (const page of [alice.page, bob.page]) {
    await expect(bidOf(page, dave.user.username)).toContainText(money(davePrice));
    await expect(bidOf(page, erin.user.username)).toContainText(money(erinPrice));
    await expect(bidOf(page, dave.user.username)).toHaveAttribute('data-selection', 'none');
    await expect(bidOf(page, erin.user.username)).toHaveAttribute('data-selection', 'none');
  }

  // A selects D's bid: B's page shows it as the creator's choice, without reloading.
  const selectionShownIn = await timeUntil(
    () => bidOf(alice.page, dave.user.username).click(),
    () =>
      expect(bidOf(bob.page, dave.user.username)).toHaveAttribute('data-selection', 'creator', {
        timeout: 2_000,
      }),
  );
  recordLatency('creator’s bid selection shown to B', selectionShownIn);
  expect(selectionShownIn).toBeLessThanOrEqual(2_000);
  await expect(bidOf(bob.page, dave.user.username)).toHaveText(/Selected by creator/);
  await expect(bidOf(bob.page, erin.user.username)).toHaveAttribute('data-selection', 'none');
  await expect(bidOf(alice.page, dave.user.username)).toHaveAttribute('data-selection', 'creator');

  // B selects the same bid: A's page shows the deal finalized with D as dealmaker, without reloading.
  const aFinalized = alice.page.getByRole('region', { name: 'Deal Finalized' });
  const finalizedShownIn = await timeUntil(
    () => bidOf(bob.page, dave.user.username).click(),
    // The section shows only once the deal has its dealmaker, and names them.
    () =>
      expect(valueBeside(aFinalized, 'Dealmaker')).toHaveText(`@${dave.user.username}`, { timeout: 2_000 }),
  );
  recordLatency('finalized deal shown to A', finalizedShownIn);
  expect(finalizedShownIn).toBeLessThanOrEqual(2_000);
  await expect(aFinalized).toBeVisible();
  await expect(aFinalized.getByRole('heading', { name: 'Deal Finalized' })).toBeVisible();
  await expect(valueBeside(aFinalized, 'Final Budget')).toHaveText(money(davePrice));
  await expect(valueBeside(alice.page.getByRole('main'), 'Deal Maker')).toContainText(
    `@${dave.user.username}`,
  );
  await expect(alice.page.getByRole('region', { name: 'Bids' })).toHaveCount(0);
  await expect(alice.page.getByRole('button', { name: 'Request a Dealmaker' })).toHaveCount(0);
  await expect(bob.page.getByRole('region', { name: 'Deal Finalized' })).toBeVisible();
});

test('a new deal appears on an open Deals page without reloading', async ({ alice, bob }) => {
  await gotoLive(bob.page, '/deals', { dealsFeed: true });
  await expect(bob.page.getByRole('heading', { name: 'Deals', level: 1 })).toBeVisible();
  await expect(bob.page.getByText('Loading deals')).toHaveCount(0);

  const input = newDeal('Coffee roastery');
  const card = bob.page.getByRole('article', { name: input.title });
  await expect(card).toHaveCount(0);
  const shownIn = await timeUntil(
    async () => {
      await createDeal(alice, input);
    },
    () => expect(card).toBeVisible(),
  );
  recordLatency('new deal shown on B’s Deals page (API call to visible)', shownIn);
  await expect(card.getByText(input.description)).toBeVisible();
  await expect(card.getByText(money(input.budget))).toBeVisible();
  await expect(card.getByText(input.timeline)).toBeVisible();
  await expect(card.getByRole('link', { name: `@${alice.user.username}` })).toBeVisible();
  await expect(card.getByText('No one has joined yet')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Join Deal' })).toBeVisible();
});

test('only a tab showing deals hears of them: the Deals page stays live, a wallet page gets no deal frames', async ({
  alice,
  bob,
  carol,
}) => {
  const walletFrames: string[] = [];
  carol.page.on('websocket', (socket) => {
    if (!socket.url().includes('/socket.io/')) return;
    socket.on('framereceived', ({ payload }) => walletFrames.push(String(payload)));
  });
  await gotoLive(carol.page, '/deposit');
  await expect(carol.page.getByRole('heading', { name: 'Wallet & Deposits', level: 1 })).toBeVisible();
  await gotoLive(bob.page, '/deals', { dealsFeed: true });
  await expect(bob.page.getByText('Loading deals')).toHaveCount(0);

  const input = newDeal('Olive grove');
  const deal = await createDeal(alice, input);
  await expect(bob.page.getByRole('article', { name: input.title })).toBeVisible();
  const renamed = `${input.title} with its press`;
  const edited = await alice.context.request.patch(`/api/deals/${deal.id}`, {
    data: { title: renamed },
    headers: { authorization: `Bearer ${alice.token}` },
  });
  expect(edited.ok(), await edited.text()).toBe(true);
  await expect(bob.page.getByRole('article', { name: renamed })).toBeVisible();
  await joinDeal(carol, deal.id);
  await expect(
    bob.page.getByRole('article', { name: renamed }).getByText(`@${carol.user.username}`),
  ).toBeVisible();

  // The wallet tab heard nothing of the deal, though its user joined it (that is their own notification).
  const dealFrames = walletFrames.filter((frame) => /"deal-updated"|"deals-feed"/.test(frame));
  expect(dealFrames).toEqual([]);
});
