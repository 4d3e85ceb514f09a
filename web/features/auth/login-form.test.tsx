import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, getStoredToken } from '../../lib/auth-token';
import { cleanup, click, getButton, getByLabel, renderInApp, typeInto, waitFor } from '../../test/render';
import { fakeToken, jsonResponse } from '../../test/session-fixtures';
import { LoginForm } from './login-form';

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) => jsonResponse(body, status);
const token = fakeToken({ id: 3, username: 'ada', email: 'ada@example.com' });
const user = {
  id: 3,
  username: 'ada',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
};

async function fillAndSubmit(container: HTMLElement) {
  await typeInto(getByLabel(container, 'Username'), 'ada');
  await typeInto(getByLabel(container, 'Password'), 'secret-password');
  await click(getButton(container, 'Sign In'));
}

describe('LoginForm', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('reads "Signing in..." while busy, then shows the server message', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { container } = await renderInApp(<LoginForm />);
    await fillAndSubmit(container);

    const busy = await waitFor(() => getButton(container, 'Signing in...'));
    expect(busy.disabled).toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'ada', password: 'secret-password' });

    answer(json(401, { message: 'Invalid username or password.', code: 'UNAUTHENTICATED' }));
    const alert = await waitFor(() => container.querySelector('[role="alert"]')!);
    expect(alert.textContent).toBe('Invalid username or password.');
    expect(getButton(container, 'Sign In').disabled).toBe(false);
    expect(getStoredToken()).toBeNull();
  });

  it("falls back to 'Login failed' when the server gives no message", async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { container } = await renderInApp(<LoginForm />);
    await fillAndSubmit(container);
    const alert = await waitFor(() => container.querySelector('[role="alert"]')!);
    expect(alert.textContent).toBe('Login failed');
  });

  it('stores the token and reports success', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/auth/login' ? json(200, { token, user }) : json(200, user),
    );
    const onSuccess = vi.fn();
    const { container } = await renderInApp(<LoginForm onSuccess={onSuccess} />);
    await fillAndSubmit(container);
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(getStoredToken()).toBe(token);
  });

  it('shows a notice and a pre-filled username (after registering)', async () => {
    const { container } = await renderInApp(
      <LoginForm notice="Registration successful!" defaultUsername="grace" />,
    );
    expect(container.querySelector('[role="status"]')?.textContent).toBe('Registration successful!');
    expect((getByLabel(container, 'Username') as HTMLInputElement).value).toBe('grace');
  });

  it('offers a new verification mail when the email is not verified yet', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/auth/login'
        ? json(403, {
            message:
              'Please verify your email before signing in. Check your inbox for the verification link.',
            code: 'FORBIDDEN',
          })
        : json(200, {
            message: 'If an unverified account uses this email, a new verification link has been sent to it.',
          }),
    );
    const { container } = await renderInApp(<LoginForm />);
    await fillAndSubmit(container);
    await click(await waitFor(() => getButton(container, 'Resend the verification mail')));

    const dialog = await waitFor(() => document.querySelector<HTMLElement>('[role="dialog"]'));
    await typeInto(getByLabel(dialog, 'Email'), 'ada@example.com');
    await click(getButton(dialog, 'Send the link'));
    await waitFor(() =>
      expect(dialog.querySelector('[role="status"]')?.textContent).toBe(
        'If an unverified account uses this email, a new verification link has been sent to it.',
      ),
    );
    const resend = fetchMock.mock.calls.find(([input]) => String(input) === '/api/auth/register/resend');
    expect(JSON.parse(String(resend?.[1]?.body))).toEqual({ email: 'ada@example.com' });
  });
});
