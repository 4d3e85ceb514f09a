import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../contract/messages';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import type { RealtimeSocket } from '../../lib/socket';
import { cleanup, click, getButton, renderInApp, typeInto, waitFor } from '../../test/render';
import { jsonResponse, signedInUser } from '../../test/session-fixtures';
import type { TimelineEntry } from '../timeline';
import { DealMessagesPanel } from './deal-messages-panel';

const fetchMock = vi.fn<typeof fetch>();
const json = jsonResponse;
const { token, profile: me } = signedInUser({ id: 9, username: 'dave', full_name: 'Dave Miller' });
const bob = { id: 2, username: 'bob', full_name: 'Bob Jones' };

function message(id: number, overrides: Partial<Message> = {}): Message {
  const sender = overrides.sender ?? bob;
  return {
    id,
    dealId: 7,
    content: `Message ${id}`,
    createdAt: new Date(Date.now() - (100 - id) * 1000).toISOString(),
    senderId: sender.id,
    sender,
    senderUsername: sender.username,
    clientId: null,
    ...overrides,
  };
}

/** Just enough of a Socket.IO client: records what is emitted, and lets the test play the server. */
class FakeSocket {
  connected = true;
  emitted: Array<[string, ...unknown[]]> = [];
  private listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  io = { on: () => {}, off: () => {} };
  get volatile() {
    return this;
  }
  on(event: string, listener: (...args: unknown[]) => void) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
    const ack = args[args.length - 1];
    if (event === 'join-deal-room' && typeof ack === 'function') ack({ ok: true });
    return this;
  }
  opened = false;
  connect() {
    this.opened = true;
    return this;
  }
  disconnect() {
    return this;
  }
  async serverSends(event: string, payload: unknown) {
    await act(async () => {
      for (const listener of this.listeners.get(event) ?? []) listener(payload);
    });
  }
  names() {
    return this.emitted.map(([event]) => event);
  }
}

let socket: FakeSocket;
/** The deal's chat as the server holds it (oldest first), and its timeline entries. */
let history: Message[];
let events: TimelineEntry[];
let reads: Array<{ userId: number; username: string; lastReadId: number }>;
let answerSend: (init: RequestInit | undefined) => Promise<Response>;

/** The timeline as the server answers it: messages and timeline entries, newest first. */
const timeline = () =>
  [...history.map((m) => ({ ...m, type: 'message' as const })), ...events].sort((a, b) => b.id - a.id);

async function renderPanel(dealId: number | null = 7) {
  const rendered = await renderInApp(<DealMessagesPanel dealId={dealId} />, {
    connectRealtime: () => socket as unknown as RealtimeSocket,
  });
  // The connection's code (with every feature its events patch) loads on sign-in, a moment after the
  // first render: slower on a busy machine.
  await waitFor(() => socket.opened, 5000);
  return rendered;
}
const input = (container: HTMLElement) => {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent === 'Message');
  return document.getElementById(label!.htmlFor) as HTMLTextAreaElement;
};
const shownIds = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-message-id]')].map((item) => item.getAttribute('data-message-id'));

describe('DealMessagesPanel', () => {
  beforeEach(() => {
    socket = new FakeSocket();
    history = [];
    events = [];
    reads = [];
    answerSend = async (init) => {
      const body = JSON.parse(String(init?.body));
      return json(
        message(50, {
          sender: { id: 9, username: 'dave', full_name: 'Dave Miller' },
          content: body.content,
          clientId: body.clientId,
          createdAt: new Date().toISOString(),
        }),
        201,
      );
    };
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(async (request, init) => {
      const url = String(request);
      if (url === '/api/user-profile') return json(me);
      if (url === '/api/deals/7/timeline?limit=50') return json({ items: timeline() });
      if (url === '/api/messages/deal/7/reads') return json({ reads });
      if (url === '/api/messages/deal/7/read' && init?.method === 'POST') return json({ unread: 0 });
      if (url === '/api/messages/send' && init?.method === 'POST') return answerSend(init);
      throw new Error(`Unexpected call ${url}`);
    });
    storeToken(token);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('joins the deal room while open, and shows the empty state', async () => {
    const { container, unmount } = await renderPanel();
    await waitFor(() => container.textContent?.includes('No messages yet') || null);
    expect(container.textContent).toContain('Start the conversation and discuss your deal!');
    expect(socket.emitted[0]?.slice(0, 2)).toEqual(['join-deal-room', 7]);
    unmount();
    expect(socket.emitted.at(-1)).toEqual(['leave-deal-room', 7]);
  });

  it('says so when no deal is chosen', async () => {
    const { container } = await renderPanel(null);
    expect(container.textContent).toContain('No deal selected for messaging.');
  });

  it('shows the history by createdAt, with sender names and own messages apart', async () => {
    history = [
      message(2, { createdAt: new Date(Date.now() - 5 * 60_000).toISOString() }),
      message(1, {
        sender: { id: 9, username: 'dave', full_name: 'Dave Miller' },
        createdAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
      }),
    ];
    const { container } = await renderPanel();
    await waitFor(() => shownIds(container).length === 2 || null);
    expect(shownIds(container)).toEqual(['1', '2']);
    const [own, other] = [...container.querySelectorAll('[data-message-id]')];
    expect(own!.hasAttribute('data-own')).toBe(true);
    expect(own!.textContent).toContain('Dave Miller');
    expect(own!.textContent).toContain('2h ago');
    expect(other!.hasAttribute('data-own')).toBe(false);
    expect(other!.textContent).toContain('Bob Jones');
    expect(other!.textContent).toContain('5m ago');
  });

  it('says so when the history cannot load', async () => {
    fetchMock.mockImplementation(async (request) =>
      String(request) === '/api/user-profile' ? json(me) : json({ message: 'Boom' }, 500),
    );
    const { container } = await renderPanel();
    await waitFor(() => container.textContent?.includes('Failed to load messages') || null, 4000);
  });

  it('shows a sent message at once as "Sending...", then the server copy', async () => {
    let release: (response: Response) => void = () => {};
    const answer = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const send = answerSend;
    answerSend = async (init) => {
      const response = await send(init);
      await answer;
      return response;
    };
    const { container } = await renderPanel();
    await waitFor(() => container.textContent?.includes('No messages yet') || null);
    expect(getButton(container, 'Send').disabled).toBe(true);

    await typeInto(input(container), '   Hello Bob  ');
    expect(socket.names()).toContain('user-typing-start');
    expect(container.textContent).toContain('14/1000');
    await click(getButton(container, 'Send'));

    const temporary = container.querySelector('[data-temporary]');
    expect(temporary?.textContent).toContain('Sending...');
    expect(temporary?.textContent).toContain('Hello Bob');
    expect(input(container).disabled).toBe(true);
    expect(input(container).value).toBe('');
    expect(socket.names()).toContain('user-typing-stop');
    const sent = JSON.parse(
      String(fetchMock.mock.calls.find(([url]) => url === '/api/messages/send')?.[1]?.body),
    );
    expect(sent).toMatchObject({ dealId: 7, content: 'Hello Bob' });
    expect(sent.clientId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    release(new Response());
    await waitFor(() => !container.querySelector('[data-temporary]') || null);
    expect(shownIds(container)).toEqual(['50']);
    expect(container.textContent).toContain('Just now');
    expect(input(container).disabled).toBe(false);

    // The server's event for the viewer's own message changes nothing.
    await socket.serverSends('message-updated', {
      dealId: 7,
      messageData: message(50, { sender: { id: 9, username: 'dave', full_name: 'Dave Miller' } }),
      updateType: 'sent',
    });
    expect(shownIds(container)).toEqual(['50']);
  });

  it('gives the text back when sending fails', async () => {
    answerSend = async () => json({ message: 'Only the participants of this deal can do this.' }, 403);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = await renderPanel();
    await waitFor(() => container.textContent?.includes('No messages yet') || null);
    await typeInto(input(container), 'Hello');
    await click(getButton(container, 'Send'));
    await waitFor(() => container.textContent?.includes('Failed to send message') || null);
    expect(container.querySelector('[data-temporary]')).toBeNull();
    expect(input(container).value).toBe('Hello');
    expect(container.textContent).toContain('Only the participants of this deal can do this.');
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it("adds others' messages as they arrive, once, and shows who is typing", async () => {
    history = [message(1)];
    const { container } = await renderPanel();
    await waitFor(() => shownIds(container).length === 1 || null);

    const carol = { id: 3, username: 'carol', full_name: '' };
    await socket.serverSends('typing-updated', { dealId: 7, userInfo: bob, isTyping: true });
    await socket.serverSends('typing-updated', { dealId: 7, userInfo: carol, isTyping: true });
    await socket.serverSends('typing-updated', { dealId: 8, userInfo: { ...bob, id: 4 }, isTyping: true });
    await socket.serverSends('typing-updated', {
      dealId: 7,
      userInfo: { id: 9, username: 'dave', full_name: 'Dave Miller' },
      isTyping: true,
    });
    expect(container.textContent).toContain('Bob Jones is typing…');
    expect(container.textContent).toContain('carol is typing…');
    expect(container.textContent).not.toContain('Dave Miller is typing');
    await socket.serverSends('typing-updated', { dealId: 7, userInfo: carol, isTyping: false });
    expect(container.textContent).not.toContain('carol is typing…');

    const incoming = { dealId: 7, messageData: message(2, { content: 'Deal?' }), updateType: 'sent' };
    await socket.serverSends('message-updated', incoming);
    await socket.serverSends('message-updated', incoming);
    await socket.serverSends('message-updated', { ...incoming, dealId: 8, messageData: message(3) });
    expect(shownIds(container)).toEqual(['1', '2']);
    // The sender's own message ends their indicator.
    expect(container.textContent).not.toContain('Bob Jones is typing…');
  });

  it('shows the timeline entries apart, "New messages" before the first unread, and marks the chat read', async () => {
    const dave = { id: 9, username: 'dave', full_name: 'Dave Miller' };
    events = [
      {
        type: 'event',
        id: 1,
        kind: 'joined',
        actor: bob,
        message: 'bob joined the deal.',
        createdAt: new Date(Date.now() - 200_000).toISOString(),
      },
    ];
    history = [message(2, { sender: dave }), message(3), message(4)];
    reads = [
      { userId: 9, username: 'dave', lastReadId: 2 },
      { userId: 2, username: 'bob', lastReadId: 4 },
    ];
    const { container } = await renderPanel();
    await waitFor(() => container.querySelector('[data-new-messages]'));
    const log = container.querySelector('[role="log"]')!;
    const lines = [...log.querySelectorAll('li')].map(
      (li) =>
        li.getAttribute('data-message-id') ??
        (li.hasAttribute('data-event-id') ? `event ${li.getAttribute('data-event-id')}` : li.textContent),
    );
    expect(lines).toEqual(['event 1', '2', 'New messages', '3', '4']);
    expect(log.querySelector('[data-event-id]')!.textContent).toMatch(/^bob joined the deal\. · \dm ago$/);
    // Bob read Dave's message: it says so under it.
    expect(container.querySelector('[data-message-id="2"] [data-seen-by]')?.textContent).toBe('Seen by bob');
    expect(container.textContent).not.toContain('No messages yet');

    await waitFor(() => fetchMock.mock.calls.find(([url]) => url === '/api/messages/deal/7/read') || null);
    const read = fetchMock.mock.calls.filter(([url]) => url === '/api/messages/deal/7/read');
    expect(read).toHaveLength(1);
    expect(JSON.parse(String(read[0]![1]?.body))).toEqual({ lastReadId: 4 });

    // A new message from Bob is read too; the divider stays where it was.
    await socket.serverSends('message-updated', { dealId: 7, messageData: message(5), updateType: 'sent' });
    await waitFor(
      () => fetchMock.mock.calls.filter(([url]) => url === '/api/messages/deal/7/read').length === 2 || null,
    );
    expect(container.querySelectorAll('[data-new-messages]')).toHaveLength(1);
    expect(
      container.querySelector('[data-new-messages] + [data-message-id]')?.getAttribute('data-message-id'),
    ).toBe('3');
  });

  it('says "No messages yet" under the timeline entries of a deal nobody wrote in', async () => {
    events = [
      {
        type: 'event',
        id: 1,
        kind: 'created',
        actor: bob,
        message: 'bob created the deal.',
        createdAt: new Date().toISOString(),
      },
    ];
    const { container } = await renderPanel();
    await waitFor(() => container.textContent?.includes('No messages yet') || null);
    expect(container.textContent).toContain('bob created the deal.');
    expect(container.querySelector('[data-new-messages]')).toBeNull();
  });

  it('goes fullscreen, and Escape brings it back', async () => {
    const { container } = await renderPanel();
    const toggle = getButton(container, 'Fullscreen');
    await click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(container.querySelector('.fixed')).not.toBeNull();
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(container.querySelector('.fixed')).toBeNull();
  });
});
