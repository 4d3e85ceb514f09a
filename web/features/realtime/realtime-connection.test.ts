import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerEvents } from '../../../contract/realtime';
import { type RealtimeSocket, reconnectionDelayMs } from '../../lib/socket';
import { makeMessage } from '../../test/message-fixtures';
import { dealQueryKeys } from '../deals';
import { type MessagePages, messageKeys } from '../messages';
import { notificationKeys } from '../notifications';
import { offlineNoticeDelayMs, openRealtime } from './realtime-connection';

type Listener = (...args: unknown[]) => void;

/**
 * The parts of a Socket.IO client socket the connection uses, driven by the test: `serverConnects()`,
 * `serverDrops(reason)`, `serverRefuses()` and `serverSends(event, payload)` play the server.
 */
class FakeSocket {
  connected = false;
  /** Socket.IO's own retrying is on (false after a refused handshake or a server disconnect). */
  active = false;
  connectCalls = 0;
  disconnectCalls = 0;
  private listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  connect() {
    this.connectCalls++;
    this.active = true;
    return this;
  }
  disconnect() {
    this.disconnectCalls++;
    this.active = false;
    if (this.connected) {
      this.connected = false;
      this.fire('disconnect', 'io client disconnect');
    }
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
  serverConnects() {
    this.connected = true;
    this.fire('connect');
  }
  serverDrops(reason: string) {
    this.connected = false;
    // After `io server disconnect` Socket.IO stops; after a lost transport it retries by itself.
    if (reason === 'io server disconnect') this.active = false;
    this.fire('disconnect', reason);
  }
  serverUnreachable() {
    this.fire('connect_error', new Error('websocket error'));
  }
  serverRefuses() {
    this.active = false;
    this.fire('connect_error', new Error('unauthorized'));
  }
  serverSends<E extends keyof ServerEvents>(event: E, payload: ServerEvents[E]) {
    this.fire(event, payload);
  }
}

let socket: FakeSocket;
let queryClient: QueryClient;
let offline: boolean[];
let ended: Array<string | null>;
let close: (() => void) | undefined;
const fetchMock = vi.fn<typeof fetch>();

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function open() {
  close = openRealtime({
    token: 'token',
    connect: () => socket as unknown as RealtimeSocket,
    queryClient,
    viewer: () => ({ id: 1, username: 'alice' }),
    onSocket: () => {},
    onSessionEnded: (message) => ended.push(message),
    onOffline: (value) => offline.push(value),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  socket = new FakeSocket();
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  offline = [];
  ended = [];
  fetchMock.mockImplementation(async () => json({}));
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  close?.();
  close = undefined;
  queryClient.clear();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('reconnection back-off', () => {
  it('doubles from 1 s up to 30 s, varied by half either way', () => {
    expect(reconnectionDelayMs(0, () => 0.5)).toBe(1000);
    expect(reconnectionDelayMs(3, () => 0.5)).toBe(8000);
    expect(reconnectionDelayMs(10, () => 0.5)).toBe(30_000);
    expect(reconnectionDelayMs(0, () => 0)).toBe(500);
    expect(reconnectionDelayMs(0, () => 0.999_999)).toBe(1500);
    // Never beyond the cap, never nothing.
    expect(reconnectionDelayMs(1000, () => 0.999_999)).toBe(30_000);
    expect(reconnectionDelayMs(1000, () => 0)).toBe(15_000);
  });
});

describe('the connection', () => {
  it('connects again after the server let it go (a graceful shutdown), however long it takes', async () => {
    open();
    expect(socket.connectCalls).toBe(1);
    socket.serverConnects();
    for (let round = 0; round < 20; round++) {
      socket.serverDrops('io server disconnect');
      const calls = socket.connectCalls;
      await vi.advanceTimersByTimeAsync(30_000);
      expect(socket.connectCalls).toBe(calls + 1);
    }
    socket.serverConnects();
    expect(socket.connected).toBe(true);
  });

  it('leaves a lost connection to Socket.IO, which retries by itself', async () => {
    open();
    socket.serverConnects();
    socket.serverDrops('transport close');
    socket.serverUnreachable();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.connectCalls).toBe(1);
  });

  it('never reconnects a socket whose session ended', async () => {
    open();
    socket.serverConnects();
    // The server tells the socket why, then lets it go.
    socket.fire('session-ended', { message: 'Signed out elsewhere.' });
    socket.serverDrops('io server disconnect');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(socket.connectCalls).toBe(1);
    expect(ended).toEqual(['Signed out elsewhere.']);
    window.dispatchEvent(new Event('online'));
    expect(socket.connectCalls).toBe(1);
    expect(offline).not.toContain(true);
  });

  it('after a refused handshake, asks whether the session still holds and tries again later', async () => {
    open();
    socket.serverRefuses();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/auth/me');
    await vi.advanceTimersByTimeAsync(1500);
    expect(socket.connectCalls).toBe(2);
  });

  it('tries again at once when the network or the user comes back, cutting the wait short', async () => {
    open();
    socket.serverConnects();
    socket.serverDrops('transport close');
    window.dispatchEvent(new Event('online'));
    expect(socket.disconnectCalls).toBe(1);
    expect(socket.connectCalls).toBe(2);
    // Focus and visibility come together: one attempt for both.
    window.dispatchEvent(new Event('focus'));
    expect(socket.connectCalls).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    window.dispatchEvent(new Event('focus'));
    expect(socket.connectCalls).toBe(3);
    // Connected: nothing to do.
    socket.serverConnects();
    await vi.advanceTimersByTimeAsync(1000);
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(socket.connectCalls).toBe(3);
  });

  it('says it is reconnecting after 3 seconds down, and no more once connected', async () => {
    open();
    socket.serverConnects();
    socket.serverDrops('transport close');
    await vi.advanceTimersByTimeAsync(offlineNoticeDelayMs - 100);
    expect(offline).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(offline).toEqual([true]);
    socket.serverConnects();
    expect(offline).toEqual([true, false]);
    // A blip shorter than that shows nothing.
    socket.serverDrops('transport close');
    await vi.advanceTimersByTimeAsync(1000);
    socket.serverConnects();
    await vi.advanceTimersByTimeAsync(offlineNoticeDelayMs);
    expect(offline).toEqual([true, false]);
  });
});

describe('catching up after a reconnection', () => {
  const history = (...ids: number[]): MessagePages => ({
    pages: [{ messages: ids.map((id) => makeMessage(id, { dealId: 7 })), hasMore: false }],
    pageParams: [undefined],
  });
  const shown = () =>
    queryClient
      .getQueryData<MessagePages>(messageKeys.ofDeal(7))
      ?.pages.flatMap((page) => page.messages.map((item) => item.id));
  const timelineItem = (id: number) => ({ ...makeMessage(id, { dealId: 7 }), type: 'message' });

  it('adds the messages missed to the open chat once, even those also heard live meanwhile', async () => {
    open();
    socket.serverConnects();
    queryClient.setQueryData(messageKeys.ofDeal(7), history(1, 2));
    socket.serverDrops('io server disconnect');
    // Messages 3 to 5 were sent while the server was away; 5 is also heard live as the socket returns.
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.includes('after=2')) return json({ items: [3, 4, 5].map(timelineItem) });
      // The latest page, newest first.
      return json({ items: [5, 4, 3, 2, 1].map(timelineItem) });
    });
    socket.serverConnects();
    socket.serverSends('message-updated', {
      dealId: 7,
      messageData: makeMessage(5, { dealId: 7 }),
      updateType: 'sent',
    });
    await vi.waitFor(() => expect(shown()).toEqual([1, 2, 3, 4, 5]));
  });

  it('reloads the notifications, unread counts and deals on screen, not the chats', () => {
    open();
    socket.serverConnects();
    const notifications = notificationKeys.unreadCount();
    queryClient.setQueryData(notifications, 1);
    queryClient.setQueryData(messageKeys.unread(), { deals: [] });
    queryClient.setQueryData(dealQueryKeys.detail(7), {});
    queryClient.setQueryData(messageKeys.ofDeal(7), history(1));
    socket.serverDrops('transport close');
    socket.serverConnects();
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(invalidated(notifications)).toBe(true);
    expect(invalidated(messageKeys.unread())).toBe(true);
    expect(invalidated(dealQueryKeys.detail(7))).toBe(true);
    expect(invalidated(messageKeys.ofDeal(7))).toBe(false);
  });
});
