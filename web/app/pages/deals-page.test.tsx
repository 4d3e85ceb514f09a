import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deal, DealCan } from '../../../contract/deals';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import { makeDeal } from '../../test/deal-fixtures';
import { cleanup, getButton, renderInApp, typeInto, waitFor } from '../../test/render';
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

  describe('filters', () => {
    const coffee = makeDeal({
      id: 7,
      title: 'Coffee roasting',
      description: 'Roasted <script>x</script> coffee',
    });
    const snippet = [
      { text: 'Roasted <script>x</script> ', match: false },
      { text: 'coffee', match: true },
    ];
    const pressed = (container: HTMLElement, name: string) =>
      getButton(container, name).getAttribute('aria-pressed');

    it('reads every filter from the address, asks the list and its count, and marks the matched words', async () => {
      route({
        'GET /api/deals/all?q=coffee&status=open%2Cchoosing&minBudget=1000&limit=24': () =>
          json([{ ...coffee, snippet }, makeDeal({ id: 6, title: 'Coffee beans' })]),
        'GET /api/deals/count?q=coffee&status=open%2Cchoosing&minBudget=1000': () =>
          json({ count: 2, more: false }),
        'GET /api/saved-searches': () => json([]),
      });
      const { container } = await renderInApp(<DealsPage />, {
        path: '/deals?q=coffee&status=open,choosing&minBudget=1000',
      });
      await waitFor(() => expect(container.textContent).toContain('2 deals match'));
      expect(container.textContent).toContain('Showing deals matching “coffee”');
      expect(pressed(container, 'Open')).toBe('true');
      expect(pressed(container, 'Seeking dealmaker')).toBe('true');
      expect(pressed(container, 'Finalized')).toBe('false');
      const card = container.querySelector('article')!;
      expect(card.querySelector('mark')?.textContent).toBe('coffee');
      expect(card.textContent).toContain('Roasted <script>x</script> coffee');
      expect(card.querySelector('script')).toBeNull();
      await waitFor(() =>
        expect((container.querySelector('input[name="minBudget"]') as HTMLInputElement).value).toBe('1000'),
      );
      // Relevance is the order while there are keywords.
      expect((container.querySelector('select[name="sort"]') as HTMLSelectElement).value).toBe('relevance');
      expect(getButton(container, 'Save this search')).toBeTruthy();
    });

    it('says which filter to clear when nothing matches, and clears it', async () => {
      route({
        'GET /api/deals/all?status=completed&maxBudget=10&limit=24': () => json([]),
        'GET /api/deals/count?status=completed&maxBudget=10': () => json({ count: 0, more: false }),
        'GET /api/deals/all?status=completed&limit=24': () => json([]),
        'GET /api/deals/count?status=completed': () => json({ count: 0, more: false }),
        'GET /api/deals/all?limit=24': () => json([coffee]),
        'GET /api/saved-searches': () => json([]),
      });
      const { container } = await renderInApp(<DealsPage />, {
        path: '/deals?status=completed&maxBudget=10',
      });
      await waitFor(() =>
        expect(container.textContent).toContain('No deals match — clear the budget filter?'),
      );
      await act(async () => getButton(container, 'Clear budget filter').click());
      await waitFor(() =>
        expect(container.textContent).toContain('No deals match — clear the status filter?'),
      );
      await act(async () => getButton(container, 'Clear status filter').click());
      await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(1));
      expect(container.textContent).not.toContain('Save this search');
      expect(container.textContent).not.toContain('deals match');
    });

    it('searches what is typed after a pause, and toggles a stage', async () => {
      route({
        'GET /api/deals/all?limit=24': () => json([coffee]),
        'GET /api/deals/all?q=tea&limit=24': () => json([]),
        'GET /api/deals/count?q=tea': () => json({ count: 0, more: false }),
        'GET /api/deals/all?q=tea&status=in_progress&limit=24': () => json([]),
        'GET /api/deals/count?q=tea&status=in_progress': () => json({ count: 0, more: false }),
        'GET /api/saved-searches': () => json([]),
      });
      const { container } = await renderInApp(<DealsPage />, { path: '/deals' });
      await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(1));
      await typeInto(container.querySelector('#deal-search'), 't');
      await typeInto(container.querySelector('#deal-search'), 'te');
      await typeInto(container.querySelector('#deal-search'), 'tea');
      await waitFor(() =>
        expect(container.textContent).toContain('No deal matches “tea”. Try a different keyword.'),
      );
      // One search for the word, not one per letter.
      expect(
        fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/deals/all?q=t')),
      ).toHaveLength(1);
      await act(async () => getButton(container, 'Finalized').click());
      await waitFor(() => expect(pressed(container, 'Finalized')).toBe('true'));
      await waitFor(() => expect(calls('GET /api/deals/all?q=tea&status=in_progress&limit=24')).toBe(1));
      expect(container.textContent).toContain('No deals match — clear the status filter?');
    });

    it('pages other orders by offset', async () => {
      const page = Array.from({ length: 24 }, (_, index) =>
        makeDeal({ id: 100 - index, budget: 1000 - index }),
      );
      route({
        'GET /api/deals/all?sort=budget_desc&limit=24': () => json(page),
        'GET /api/deals/all?sort=budget_desc&limit=24&offset=24': () =>
          json([makeDeal({ id: 3, budget: 1 })]),
        'GET /api/saved-searches': () => json([]),
      });
      const { container } = await renderInApp(<DealsPage />, { path: '/deals?sort=budget_desc' });
      await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(24));
      await act(async () => getButton(container, 'Load more').click());
      await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(25));
    });
  });
});
