import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deal, DealCan } from '../../../contract/deals';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import { makeDeal } from '../../test/deal-fixtures';
import { cleanup, getButton, renderInApp, waitFor } from '../../test/render';
import { fakeToken, jsonResponse, signedInUser } from '../../test/session-fixtures';
import { DealsPage } from './deals-page';

const fetchMock = vi.fn<typeof fetch>();
const json = jsonResponse;
const tokenFor = (username: string) => fakeToken({ id: 9, username, email: `${username}@example.com` });
const { profile: me } = signedInUser({ id: 9, username: 'dave', full_name: 'Dave' });
/** What the server answers the counterpart of an open deal may do. */
const counterpartCan: DealCan = { leave: true, selectBid: true, requestDealmaker: true };

function route(handlers: Record<string, (init: RequestInit | undefined) => Response | Promise<Response>>) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    const key = `${init?.method ?? 'GET'} ${url}`;
    if (url === '/api/user-profile') return json(me);
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected call ${key}`);
    return handler(init);
  });
}
const calls = (key: string) =>
  fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key).length;

describe('DealsPage', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    storeToken(tokenFor('dave'));
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('shows the cards, and loads the next page with the last id as cursor', async () => {
    const firstPage: Deal[] = Array.from({ length: 24 }, (_, index) =>
      makeDeal({ id: 100 - index, title: `Deal ${100 - index}` }),
    );
    route({
      'GET /api/deals/all?limit=24': () => json(firstPage),
      'GET /api/deals/all?limit=24&before=77': () =>
        json([makeDeal({ id: 50, title: 'Older deal', dealer_joined: 'bob', budget: 1234.5 })]),
    });
    const { container } = await renderInApp(<DealsPage />);
    await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(24));
    expect(container.textContent).toContain('No one has joined yet');
    expect(container.textContent).toContain('$5,000.00');

    await act(async () => getButton(container, 'Load more').click());
    await waitFor(() => expect(container.textContent).toContain('Older deal'));
    expect(container.textContent).toContain('$1,234.50');
    expect(container.textContent).toContain('@bob');
    expect(container.querySelectorAll('article')).toHaveLength(25);
    // The whole list came in two calls, not one per card.
    expect(fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/deals'))).toHaveLength(2);
    expect(container.textContent).not.toContain('Load more');
  });

  it('joins once on a double click, then offers Leave Deal', async () => {
    let release: () => void = () => {};
    route({
      'GET /api/deals/all?limit=24': () => json([makeDeal({ id: 3 })]),
      'PUT /api/deals/join-deal-as-dealer/3': () =>
        new Promise((resolve) => {
          release = () => resolve(json(makeDeal({ id: 3, dealer_joined: 'dave', can: counterpartCan })));
        }),
    });
    const { container } = await renderInApp(<DealsPage />);
    await waitFor(() => getButton(container, 'Join Deal'));
    const join = getButton(container, 'Join Deal');
    await act(async () => {
      join.click();
      join.click();
    });
    await waitFor(() => expect(calls('PUT /api/deals/join-deal-as-dealer/3')).toBe(1));
    await act(async () => release());
    await waitFor(() => expect(container.textContent).toContain('Joined deal successfully!'));
    expect(getButton(container, 'Leave Deal')).toBeTruthy();
    expect(calls('PUT /api/deals/join-deal-as-dealer/3')).toBe(1);
  });

  it('asks to join from a card, and the dialog says when a request already waits', async () => {
    const approval = makeDeal({ id: 3, joinPolicy: 'approval', can: { askToJoin: true } });
    let asked: unknown[] = [];
    const pending = {
      id: 5,
      dealId: 3,
      requester: { username: 'dave', full_name: 'Dave' },
      message: '',
      status: 'pending',
      createdAt: '2024-05-02T09:30:00.000Z',
      decidedAt: null,
    };
    route({
      'GET /api/deals/all?limit=24': () => json([approval]),
      'GET /api/deals/3/join-requests': () => json(asked),
      'POST /api/deals/3/join-requests': () => {
        asked = [pending];
        return json(pending, 201);
      },
    });
    const { container } = await renderInApp(<DealsPage />);
    await waitFor(() => getButton(container, 'Ask to Join'));
    expect(container.textContent).not.toContain('Join Deal');
    await act(async () => getButton(container, 'Ask to Join').click());
    const dialog = () => document.querySelector('[role="dialog"]')!;
    await waitFor(() => expect(calls('GET /api/deals/3/join-requests')).toBe(1));
    await act(async () => {
      dialog()
        .querySelector('form')!
        .dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    await waitFor(() => expect(container.textContent).toContain('Request to join sent successfully!'));
    expect(calls('POST /api/deals/3/join-requests')).toBe(1);
    // Asked again from the card: the dialog says it waits, and offers no second request.
    await act(async () => getButton(container, 'Ask to Join').click());
    await waitFor(() => expect(dialog().textContent).toContain('Request sent — waiting for the creator'));
    expect([...dialog().querySelectorAll('button')].map((button) => button.textContent)).not.toContain(
      'Send Request',
    );
  });

  it("shows the failure text with the server's reason", async () => {
    route({
      'GET /api/deals/all?limit=24': () => json([makeDeal({ id: 3 })]),
      'PUT /api/deals/join-deal-as-dealer/3': () =>
        json({ message: 'Someone has already joined this deal.', code: 'CONFLICT' }, 409),
    });
    const { container } = await renderInApp(<DealsPage />);
    await waitFor(() => getButton(container, 'Join Deal'));
    await act(async () => getButton(container, 'Join Deal').click());
    await waitFor(() => expect(container.textContent).toContain('Failed to join deal.'));
    expect(container.textContent).toContain('Someone has already joined this deal.');
  });
});
