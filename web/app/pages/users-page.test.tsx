import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderInApp, typeInto, waitFor } from '../../test/render';
import { UsersPage } from './users-page';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
const member = (id: number, username: string, full_name: string) => ({
  id,
  username,
  email: `${username}@example.com`,
  full_name,
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-04T10:00:00.000Z',
  profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
});

describe('UsersPage', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('lists users, searches on every keystroke and reloads the list for a blank query', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/auth/users/search?q=ca' || url === '/api/auth/users/search?q=c')
        return json([member(2, 'carol', 'Carol Smith')]);
      if (url.startsWith('/api/auth/users/search')) return json([]);
      const { email: _hidden, ...bob } = member(1, 'bob', '');
      return json([member(2, 'carol', 'Carol Smith'), bob]);
    });
    const { container } = await renderInApp(<UsersPage />);
    await waitFor(() => expect(container.querySelectorAll('main li, ul > li')).toHaveLength(2));
    expect(container.textContent).toContain('Carol Smith');
    expect(container.textContent).toContain('@bob');
    expect(container.textContent).toContain('Joined Mar 4, 2025');
    // An email the member hides from the viewer is absent from the answer: the card just leaves it out.
    expect(container.textContent).toContain('carol@example.com');
    expect(container.textContent).not.toContain('undefined');
    const bobCard = [...container.querySelectorAll('li')].find((li) => li.textContent?.includes('@bob'));
    expect(bobCard?.textContent).not.toContain('@example.com');
    const link = [...container.querySelectorAll('a')].find((a) => a.textContent === 'View Profile');
    expect(link?.getAttribute('href')).toBe('/users/carol');

    const search = container.querySelector('input[type="search"]');
    await typeInto(search, 'c');
    await typeInto(search, 'ca');
    await waitFor(() => expect(container.querySelectorAll('ul > li')).toHaveLength(1));
    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls).toContain('/api/auth/users/search?q=c');
    expect(urls).toContain('/api/auth/users/search?q=ca');

    await typeInto(search, 'cax');
    await waitFor(() => expect(container.textContent).toContain('No users found'));
    expect(container.textContent).toContain('Try a different search term.');

    await typeInto(search, '   ');
    await waitFor(() => expect(container.querySelectorAll('ul > li')).toHaveLength(2));
  });

  it('says so when there are no users at all', async () => {
    fetchMock.mockResolvedValue(json([]));
    const { container } = await renderInApp(<UsersPage />);
    await waitFor(() => expect(container.textContent).toContain('No users available at the moment.'));
    expect(container.textContent).toContain('No users found');
  });

  it("shows 'Failed to fetch users' when the list cannot load", async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"boom","code":"INTERNAL_ERROR"}', { status: 400 }));
    const { container } = await renderInApp(<UsersPage />);
    await waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe('Failed to fetch users'),
    );
  });
});
