import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, getStoredToken, storeToken } from '../../lib/auth-token';
import { cleanup, click, getButton, renderInApp, waitFor } from '../../test/render';
import { fakeToken } from '../../test/session-fixtures';
import { useAuth } from './auth-context';
import { AuthDialog } from './auth-dialog';
import { AuthDialogProvider } from './auth-dialog-context';

const fetchMock = vi.fn<typeof fetch>();
const tokenFor = (exp: number) => fakeToken({ id: 9, username: 'ada', email: 'ada@example.com', exp });
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function Who() {
  const { isAuthenticated, user } = useAuth();
  return (
    <p>
      {isAuthenticated ? `in:${user?.id}:${user?.username}:${user?.email}:${user?.full_name ?? '-'}` : 'out'}
    </p>
  );
}

describe('AuthProvider', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('is signed out without a token', async () => {
    const { container } = await renderInApp(<Who />);
    expect(container.textContent).toBe('out');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs out silently on an expired or unparsable token and forgets it', async () => {
    storeToken(tokenFor(Math.floor(Date.now() / 1000) - 5));
    const expired = await renderInApp(<Who />);
    expect(expired.container.textContent).toBe('out');
    expect(getStoredToken()).toBeNull();

    storeToken('not-a-token');
    const garbage = await renderInApp(<Who />);
    expect(garbage.container.textContent).toBe('out');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches the full user, and falls back to the token’s id, username and email if that fails', async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"down","code":"INTERNAL_ERROR"}', { status: 503 }));
    storeToken(tokenFor(inAnHour()));
    const { container } = await renderInApp(<Who />);
    expect(container.textContent).toBe('in:9:ada:ada@example.com:-');
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/user-profile');
    expect(container.textContent).toBe('in:9:ada:ada@example.com:-');
  });

  it('uses the full user once it arrives', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          id: 9,
          username: 'ada',
          email: 'ada@example.com',
          full_name: 'Ada Lovelace',
          createdAt: '',
          updatedAt: '',
          profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
        }),
        { status: 200 },
      ),
    );
    storeToken(tokenFor(inAnHour()));
    const { container } = await renderInApp(<Who />);
    await waitFor(() => expect(container.textContent).toBe('in:9:ada:ada@example.com:Ada Lovelace'));
  });

  it('signs out when the server refuses the token', async () => {
    fetchMock.mockResolvedValue(
      new Response('{"message":"Please sign in.","code":"UNAUTHENTICATED"}', { status: 401 }),
    );
    storeToken(tokenFor(inAnHour()));
    const { container } = await renderInApp(<Who />);
    await waitFor(() => expect(container.textContent).toBe('out'));
    expect(getStoredToken()).toBeNull();
  });
});

describe('a session ended elsewhere', () => {
  const endedMessage = 'You were signed out because this session was ended from another device.';

  function SignedOutNote() {
    const { isAuthenticated, signOutReason, signOutMessage, logout } = useAuth();
    return (
      <>
        <p id="who">{isAuthenticated ? 'in' : `out:${signOutReason}:${signOutMessage ?? '-'}`}</p>
        <button type="button" onClick={() => void logout()}>
          Log me out
        </button>
      </>
    );
  }

  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('signs the tab out with the server’s words, and the login dialog shows them', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ message: endedMessage, code: 'SESSION_ENDED' }), { status: 401 }),
    );
    storeToken(tokenFor(inAnHour()));
    const { container } = await renderInApp(
      <AuthDialogProvider>
        <SignedOutNote />
        <AuthDialog />
      </AuthDialogProvider>,
    );
    await waitFor(() =>
      expect(container.querySelector('#who')?.textContent).toBe(`out:ended:${endedMessage}`),
    );
    expect(getStoredToken()).toBeNull();

    const dialog = await waitFor(() => document.querySelector('[role="dialog"]'));
    expect(dialog.querySelector('[role="status"]')?.textContent).toBe(endedMessage);
    expect(getButton(dialog, 'Sign In')).toBeTruthy();

    // Closing the dialog forgets the message.
    await click(dialog.querySelector('button[aria-label="Close"]'));
    await waitFor(() => expect(container.querySelector('#who')?.textContent).toBe('out:ended:-'));
  });

  it('ends the session on the server before forgetting the token, and forgets it even when that fails', async () => {
    const token = tokenFor(inAnHour());
    storeToken(token);
    // The profile and the sign-out alike: the server is down.
    fetchMock.mockImplementation(
      async () => new Response('{"message":"down","code":"INTERNAL_ERROR"}', { status: 503 }),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = await renderInApp(<SignedOutNote />);
    expect(container.querySelector('#who')?.textContent).toBe('in');

    await click(getButton(container, 'Log me out'));
    await waitFor(() => expect(container.querySelector('#who')?.textContent).toBe('out:logout:-'));
    const logoutCall = fetchMock.mock.calls.find(([input]) => String(input) === '/api/auth/logout');
    expect(logoutCall?.[1]?.method).toBe('POST');
    // Sent while the token still signed it.
    expect(logoutCall?.[1]?.headers).toMatchObject({ Authorization: `Bearer ${token}` });
    expect(getStoredToken()).toBeNull();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
