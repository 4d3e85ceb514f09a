import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import { cleanup, renderInApp, waitFor } from '../../test/render';
import { jsonResponse, signedInUser } from '../../test/session-fixtures';
import { OperatorPage } from './operator-page';

const fetchMock = vi.fn<typeof fetch>();
const olga = signedInUser({ id: 4, username: 'olga', full_name: 'Olga Operator' });
const me = (secondFactor: boolean) => ({
  id: 4,
  username: 'olga',
  email: olga.profile.email,
  isOperator: true,
  secondFactor,
});

describe('OperatorPage', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    storeToken(olga.token);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('stays shut for an operator without a second factor, pointing to the Security settings', async () => {
    fetchMock.mockImplementation(async (request) => {
      const url = String(request);
      if (url === '/api/user-profile') return jsonResponse(olga.profile);
      if (url === '/api/auth/me') return jsonResponse(me(false));
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<OperatorPage />);
    await waitFor(() => expect(container.textContent).toContain('Turn on two-factor sign-in first'));
    const link = [...container.querySelectorAll('a')].find(
      (a) => a.textContent === 'Go to Security settings',
    );
    expect(link?.getAttribute('href')).toBe('/profile#security');
    // The console's own calls are never made.
    expect(
      fetchMock.mock.calls.map(([input]) => String(input)).some((url) => url.startsWith('/api/admin')),
    ).toBe(false);
  });

  it('opens the console for an operator with one', async () => {
    fetchMock.mockImplementation(async (request) => {
      const url = String(request);
      if (url === '/api/user-profile') return jsonResponse(olga.profile);
      if (url === '/api/auth/me') return jsonResponse(me(true));
      if (url.startsWith('/api/admin/disputes')) return jsonResponse({ disputes: [] });
      // The ledger check and the audit log are still loading: only the console's frame matters here.
      if (url.startsWith('/api/admin/')) return new Promise<Response>(() => {});
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<OperatorPage />);
    await waitFor(() => expect(container.textContent).toContain('Escalated disputes'));
    expect(container.textContent).not.toContain('Turn on two-factor sign-in first');
  });
});
