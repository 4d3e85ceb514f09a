import type { Locator, Page, WebSocketRoute } from '@playwright/test';
import {
  createDeal,
  deposit,
  hireDealmaker,
  joinDeal,
  payEscrowHalf,
  sendMessage,
  uniqueWord,
} from './support/deals';
import { type Actor, expect, test } from './support/fixtures';
import { horizontalOverflow, seriousAxeViolations, smallTouchTargets } from './support/page-checks';

// Notifications, unread counts and read marks: a user who was away comes back to a bell with a count,
// a panel of what happened, unread badges on their deals and a chat that shows where they stopped
// reading; the others see that they read it. A chat whose connection drops catches up when it is back.

const money = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

function newDeal(subject: string) {
  const word = uniqueWord('notify');
  return {
    word,
    deal: {
      title: `${subject} ${word}`,
      description: `A deal about ${subject.toLowerCase()}.`,
      budget: 3000,
      timeline: '4 weeks',
    },
  };
}

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const messagesPanel = (page: Page) => page.getByRole('region', { name: 'Deal Messages' });
const chatLog = (page: Page) => messagesPanel(page).getByRole('log', { name: 'Chat history' });
const messageItems = (page: Page) => chatLog(page).locator('li[data-message-id]');
const messageWith = (page: Page, content: string) =>
  messageItems(page).filter({ has: page.getByText(content, { exact: true }) });
const unreadBadge = (scope: Locator) => scope.locator('[data-unread-badge]');

/** The viewer's unread notifications as the server counts them. */
async function unreadCountOf(actor: Actor): Promise<number> {
  const response = await actor.context.request.get('/api/notifications?limit=1', {
    headers: { authorization: `Bearer ${actor.token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).unreadCount;
}

test('back after being away: the bell, the panel, unread badges, the timeline, New messages and Seen by', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(120_000);
  const { word, deal: details } = newDeal('Bakery franchise');
  const deal = await createDeal(alice, details);
  // Alice is away: no page of hers is open while the others act.
  await alice.page.close();

  await joinDeal(bob, deal.id);
  await hireDealmaker(alice, carol, deal.id);
  await deposit(bob, 5000);
  await payEscrowHalf(bob, deal.id);
  const chat = [
    'Morning Alice, I paid my half.',
    'The franchise papers are ready.',
    'Can we sign on Friday?',
  ];
  for (const content of chat) await sendMessage(bob, deal.id, content);

  // Bob follows the deal's chat while Alice is away.
  await bob.page.goto(`/deals/${deal.id}`);
  await expect(messageItems(bob.page)).toHaveCount(3);
  await expect(bob.page.locator('[data-seen-by]')).toHaveCount(0);

  // Alice comes back: the bell counts what happened while she was away.
  const page = await alice.context.newPage();
  await page.goto('/deals');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 4 unread');
  await expect(bell(page).locator('[data-bell-count]')).toHaveText('4');
  expect(await unreadCountOf(alice)).toBe(4);

  // The deal's card and My Deals say how many messages she has not read.
  await page.getByLabel('Search deals').fill(word);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const card = page.getByRole('article', { name: deal.title });
  await expect(unreadBadge(card)).toHaveText('3 unread');
  await expect(card.getByText('3 unread messages', { exact: true })).toBeAttached();
  await page.getByRole('button', { name: 'My Deals' }).click();
  const myDeals = page.getByRole('dialog', { name: 'My Deals' });
  await expect(unreadBadge(myDeals.getByRole('article', { name: deal.title }))).toHaveText('3 unread');
  await page.keyboard.press('Escape');
  await expect(myDeals).toBeHidden();

  // The panel: newest first, unread ones said to be unread; Escape gives the focus back to the bell.
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
  const rows = panel(page).getByRole('list', { name: 'Notifications list' }).getByRole('button');
  await expect(rows).toHaveText([
    new RegExp(`^Unread: ${bob.user.username} sent you a message on "${details.title}"\\.`),
    new RegExp(
      `^Unread: ${bob.user.username} paid their half \\(${literal(money(1500))}\\) into the escrow of "${details.title}": yours is awaited\\.`,
    ),
    new RegExp(
      `^Unread: ${carol.user.username} accepted your request and is now the dealmaker of "${details.title}"\\.`,
    ),
    new RegExp(`^Unread: ${bob.user.username} joined your deal "${details.title}"\\.`),
  ]);
  await expect(panel(page).getByText('4 unread', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(bell(page)).toBeFocused();

  // One notification opens its deal and is read.
  await bell(page).click();
  await rows.filter({ hasText: `${bob.user.username} joined your deal` }).click();
  await expect(panel(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();

  // The chat: the deal's system entries apart from the messages, and "New messages" before Bob's first.
  const log = chatLog(page);
  await expect(log.getByText(`${alice.user.username} posted the deal.`, { exact: true })).toBeVisible();
  await expect(
    log.getByText(`${bob.user.username} joined as the counterpart.`, { exact: true }),
  ).toBeVisible();
  await expect(
    log.getByText(`${bob.user.username} paid their half (${money(1500)}) into escrow.`, { exact: true }),
  ).toBeVisible();
  await expect(log.locator('[data-event-id]').first()).toHaveText(
    new RegExp(`^${alice.user.username} posted the deal\\. · (Just now|\\dm ago)$`),
  );
  await expect(log.locator('[data-new-messages]')).toHaveText('New messages');
  await log.scrollIntoViewIfNeeded();
  await expect(log.locator('[data-new-messages]')).toBeInViewport();
  await expect(log.locator('[data-new-messages] + li')).toHaveAttribute(
    'data-message-id',
    await messageWith(page, chat[0]!).getAttribute('data-message-id').then(String),
  );
  await expect(messageItems(page)).toHaveText(chat.map((content) => new RegExp(literal(content))));

  // Reading the chat: Bob sees it live under his last message; Alice's badge and the message notification go.
  await expect(messageWith(bob.page, chat[2]!).locator('[data-seen-by]')).toHaveText(
    `Seen by ${alice.user.username}`,
  );
  await expect(bob.page.locator('[data-seen-by]')).toHaveCount(1);
  // Bob was at the end of the chat: it stays there, with "Seen by" in view.
  await chatLog(bob.page).scrollIntoViewIfNeeded();
  await expect(bob.page.locator('[data-seen-by]')).toBeInViewport();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');

  // Mark all as read empties the count.
  await bell(page).click();
  await expect(rows.first()).toHaveText(new RegExp(`^${bob.user.username} sent you a message`));
  await panel(page).getByRole('button', { name: 'Mark all as read' }).click();
  await expect(panel(page).getByText('All read', { exact: true })).toBeVisible();
  await expect(panel(page).locator('[data-unread]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(bell(page).locator('[data-bell-count]')).toHaveCount(0);
  expect(await unreadCountOf(alice)).toBe(0);

  await page.goto(`/deals?q=${word}`);
  await expect(page.getByRole('article', { name: deal.title })).toBeVisible();
  await expect(unreadBadge(page.getByRole('article', { name: deal.title }))).toHaveCount(0);
});

test('the bell counts live, and its panel works on a phone and passes axe-core', async ({ alice, bob }) => {
  test.setTimeout(90_000);
  const page = alice.page;
  await page.setViewportSize({ width: 390, height: 800 });
  // Sizes are measured on the panel as it is once open, not while it zooms in.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/profile');
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  await bell(page).click();
  await expect(panel(page).getByText('No notifications yet', { exact: true })).toBeVisible();
  await expect(panel(page).getByText('What happens on your deals will show here.')).toBeVisible();
  await expect(panel(page).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await page.keyboard.press('Escape');

  // A notification while the page is open: the count follows at once.
  const { deal: details } = newDeal('Vineyard');
  const deal = await createDeal(alice, details);
  await joinDeal(bob, deal.id);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  // The toast of spec §9, for 3 seconds.
  const toast = page.getByText(`${bob.user.username} joined your deal "${details.title}".`).first();
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 6_000 });

  await bell(page).click();
  await expect(panel(page).locator('[data-unread]')).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  expect(await horizontalOverflow(page)).toMatchObject({ overflow: 0 });
  expect(await smallTouchTargets(page)).toEqual([]);
  expect(await seriousAxeViolations(page)).toEqual([]);
});

test('notification settings in My Profile: one box per mailed kind, saved', async ({ alice }) => {
  const page = alice.page;
  await page.goto('/profile#notifications');
  const settings = page.getByRole('region', { name: 'Notification settings' });
  await expect(settings).toBeInViewport();
  const boxes = settings.getByRole('checkbox');
  // contract/notifications.ts emailedNotificationKinds: 9 since 'join-requested' (someone asks to join).
  await expect(boxes).toHaveCount(9);
  const label = 'A dispute is raised on your deal';
  await expect(settings.getByRole('checkbox', { name: label })).toBeChecked();
  await settings.getByRole('checkbox', { name: label }).uncheck();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByText('Notification settings saved.', { exact: true })).toBeVisible();

  const saved = await alice.context.request.get('/api/notifications/preferences', {
    headers: { authorization: `Bearer ${alice.token}` },
  });
  expect((await saved.json()).email).toMatchObject({ 'dispute-raised': false, 'request-received': true });
  await page.reload();
  await expect(settings.getByRole('checkbox', { name: label })).not.toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'You were paid for a deal' })).toBeChecked();
});

test('a chat whose connection dropped catches up: every message sent meanwhile, each once', async ({
  alice,
  bob,
}) => {
  test.setTimeout(90_000);
  const { deal: details } = newDeal('Boat repair');
  const deal = await createDeal(alice, details);
  await joinDeal(bob, deal.id);
  await sendMessage(bob, deal.id, 'Before the drop.');

  // Alice's realtime connection goes through here, so the test can cut it and let it come back.
  let offline = false;
  const sockets: WebSocketRoute[] = [];
  await alice.page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (offline) {
      ws.close();
      return;
    }
    sockets.push(ws);
    ws.connectToServer();
  });
  const page = alice.page;
  await page.goto(`/deals/${deal.id}`);
  await expect(messageWith(page, 'Before the drop.')).toHaveCount(1);
  // Live first: a message while connected arrives without a reload.
  await sendMessage(bob, deal.id, 'Still connected.');
  await expect(messageWith(page, 'Still connected.')).toHaveCount(1);

  // The connection drops; Bob writes meanwhile; none of it can reach Alice live.
  offline = true;
  await alice.context.setOffline(true);
  for (const ws of sockets.splice(0)) await ws.close();
  // More than a page of history (50): the latest page alone would not bring the first ones back.
  const meanwhile = Array.from({ length: 53 }, (_, index) => `Message ${index + 1} while away.`);
  for (const content of meanwhile) await sendMessage(bob, deal.id, content);
  await page.waitForTimeout(500);
  for (const content of [meanwhile[0]!, meanwhile.at(-1)!]) {
    await expect(messageWith(page, content)).toHaveCount(0);
  }

  // Back online: the chat asks for what came after its last entry and shows each exactly once.
  const catchUp = page.waitForRequest(
    (request) =>
      request.url().includes(`/api/deals/${deal.id}/timeline?after=`) && request.method() === 'GET',
  );
  offline = false;
  await alice.context.setOffline(false);
  await catchUp;
  for (const content of [meanwhile[0]!, meanwhile[1]!, meanwhile.at(-1)!]) {
    await expect(messageWith(page, content)).toHaveCount(1);
  }
  await expect(messageItems(page)).toHaveText(
    ['Before the drop.', 'Still connected.', ...meanwhile].map((content) => new RegExp(literal(content))),
  );
  // And live again afterwards.
  await sendMessage(bob, deal.id, 'After the drop.');
  await expect(messageWith(page, 'After the drop.')).toHaveCount(1);
  await expect(messageItems(page)).toHaveCount(56);
});

/** A string as a literal part of a regular expression. */
function literal(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
