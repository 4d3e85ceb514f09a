import type { BrowserContext, Locator, Page, WebSocket } from '@playwright/test';
import { createDeal, joinDeal, sendMessage, uniqueWord } from './support/deals';
import { expect, test } from './support/fixtures';
import { newActorOn, type OwnServer, startOwnServer } from './support/own-server';
import { horizontalOverflow, seriousAxeViolations } from './support/page-checks';

// An open tab outlives the server going away (a deploy, an outage): it says it is reconnecting, comes
// back by itself, and catches up what it missed. This journey stops and starts a server of its own; the
// shared one stays up for the other journeys.

const outageMs = 20_000;

const messagesPanel = (page: Page) => page.getByRole('region', { name: 'Deal Messages' });
/** The panel's messages holding exactly `content`. */
const messagesWith = (panel: Locator, content: string) =>
  panel
    .getByRole('log', { name: 'Chat history' })
    .locator('li[data-message-id]')
    .filter({ has: panel.page().getByText(content, { exact: true }) });

/** Opens the page and waits until its socket is connected and has joined the deal's room. */
async function gotoLive(page: Page, url: string) {
  let connected = false;
  let joinedRoom = false;
  const onSocket = (socket: WebSocket) => {
    if (!socket.url().includes('/socket.io/')) return;
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      // A Socket.IO CONNECT (40), an acknowledgement of joining the room (43…).
      if (text.startsWith('40')) connected = true;
      else if (/^43\d*\[\{"ok":true\}\]$/.test(text)) joinedRoom = true;
    });
  };
  page.on('websocket', onSocket);
  try {
    await page.goto(url);
    await expect.poll(() => connected, { message: 'realtime connection' }).toBe(true);
    await expect.poll(() => joinedRoom, { message: 'deal room joined' }).toBe(true);
  } finally {
    page.off('websocket', onSocket);
  }
}

/** Whether two boxes overlap. */
const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

let server: OwnServer | undefined;
let contexts: BrowserContext[] = [];

test.afterEach(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  contexts = [];
  await server?.dispose();
  server = undefined;
});

test('an open chat survives the server going away: "Reconnecting…", then the missed messages, once each', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  server = await startOwnServer();
  const alice = await newActorOn(server, browser, 'alice');
  const bob = await newActorOn(server, browser, 'bob');
  contexts = [alice.context, bob.context];
  const deal = await createDeal(alice, {
    title: `Harbour crane ${uniqueWord('rc')}`,
    description: 'Talking the crane rental through, whatever the server does.',
    budget: 4000,
    timeline: '3 weeks',
  });
  await joinDeal(bob, deal.id);

  const page = alice.page;
  await gotoLive(page, `/deals/${deal.id}`);
  const panel = messagesPanel(page);
  await expect(panel.getByRole('heading', { name: 'Deal Messages' })).toBeVisible();
  const banner = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
  await expect(banner).toHaveCount(0);
  // Set in the page: still there at the end means the tab was never reloaded.
  await page.evaluate(() => {
    (window as unknown as { tabMark: string }).tabMark = 'never reloaded';
  });

  // The server goes away (SIGTERM: a graceful stop, which lets the sockets go) for 20 seconds from its exit.
  await server.stop();
  const stoppedAt = Date.now();
  await expect(banner).toBeVisible({ timeout: 10_000 });
  await expect(banner).toHaveText('Reconnecting…');
  await expect(banner).toHaveAttribute('aria-live', 'polite');
  // Quiet: neither over the navigation bar nor over the chat's input, on a computer and on a phone, and
  // nothing axe-core finds serious.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    const bannerBox = await banner.boundingBox();
    const navBox = await page.locator('header').first().boundingBox();
    const inputBox = await panel.getByRole('textbox', { name: 'Message' }).boundingBox();
    expect(bannerBox).not.toBeNull();
    if (!bannerBox) continue;
    expect(bannerBox.x).toBeGreaterThanOrEqual(0);
    expect(bannerBox.x + bannerBox.width).toBeLessThanOrEqual(viewport.width);
    if (navBox) expect(overlap(bannerBox, navBox)).toBe(false);
    if (inputBox) expect(overlap(bannerBox, inputBox)).toBe(false);
    expect((await horizontalOverflow(page)).overflow).toBe(0);
  }
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(Math.max(0, outageMs - (Date.now() - stoppedAt)));
  await expect(banner).toBeVisible();

  // Back on the same data and port; Bob writes three messages as soon as it answers.
  await server.start();
  const backAt = Date.now();
  const texts = [1, 2, 3].map((n) => `While you were away ${n} ${uniqueWord('m')}`);
  for (const text of texts) await sendMessage(bob, deal.id, text);

  // Alice's tab reconnects by itself (its back-off is at most 30 s) and shows each message once.
  for (const text of texts) {
    await expect(messagesWith(panel, text)).toHaveCount(1, { timeout: 45_000 });
  }
  const caughtUpIn = Date.now() - backAt;
  test
    .info()
    .annotations.push({ type: 'latency', description: `caught up after the restart: ${caughtUpIn} ms` });
  console.log(`[latency] caught up after the restart: ${caughtUpIn} ms`);
  await expect(banner).toHaveCount(0);
  // Nothing arrives twice a little later either (a live event and the catch-up overlapping).
  await page.waitForTimeout(2_000);
  for (const text of texts) await expect(messagesWith(panel, text)).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { tabMark?: string }).tabMark)).toBe(
    'never reloaded',
  );

  // Live again: the next message arrives without any catching up.
  const after = `Back live ${uniqueWord('m')}`;
  await sendMessage(bob, deal.id, after);
  await expect(messagesWith(panel, after)).toHaveCount(1, { timeout: 5_000 });
});
