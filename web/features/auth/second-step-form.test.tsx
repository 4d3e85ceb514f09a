import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, getStoredToken } from '../../lib/auth-token';
import { cleanup, click, getButton, getByLabel, renderInApp, typeInto, waitFor } from '../../test/render';
import { fakeToken, jsonResponse } from '../../test/session-fixtures';
import { LoginForm } from './login-form';

// The second step of signing in to an account with two-factor sign-in on, in the login form.

const fetchMock = vi.fn<typeof fetch>();
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
const challenge = { twoFactorRequired: true, challenge: 'ch-1', methods: ['totp', 'recovery'] };

/** Answers the password step with the challenge, and the second step with `secondStep` in turn. */
function serve(...secondStep: Response[]) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/auth/login') return jsonResponse(challenge);
    if (url === '/api/auth/login/2fa') return secondStep.shift() ?? jsonResponse({ token, user });
    if (url === '/api/user-profile') return jsonResponse(user);
    throw new Error(`Unexpected call ${url}`);
  });
}
const secondStepBodies = () =>
  fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/auth/login/2fa')
    .map(([, init]) => JSON.parse(String(init?.body)));

async function passPasswordStep(container: HTMLElement) {
  await typeInto(getByLabel(container, 'Username'), 'ada');
  await typeInto(getByLabel(container, 'Password'), 'secret-password');
  await click(getButton(container, 'Sign In'));
  return waitFor(() => getByLabel(container, 'Authentication code') as HTMLInputElement);
}

describe('LoginForm second step', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('asks for the code in place of the password, as a one-time numeric code, and stores no token yet', async () => {
    serve();
    const { container } = await renderInApp(<LoginForm />);
    const code = await passPasswordStep(container);

    expect(container.textContent).toContain('Two-factor authentication');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(document.activeElement).toBe(code);
    expect(container.querySelector('input[type="password"]')).toBeNull();
    expect(getStoredToken()).toBeNull();
  });

  it('shows a wrong code in place, then signs in with the right one', async () => {
    serve(
      jsonResponse(
        {
          message: 'That code is not right. Please try the current code from your authenticator app.',
          code: 'INVALID_SECOND_FACTOR',
        },
        401,
      ),
    );
    const onSuccess = vi.fn();
    const { container } = await renderInApp(<LoginForm onSuccess={onSuccess} />);
    const code = await passPasswordStep(container);

    await typeInto(code, '111111');
    await click(getButton(container, 'Verify'));
    const alert = await waitFor(() => container.querySelector('[role="alert"]'));
    expect(alert.textContent).toBe(
      'That code is not right. Please try the current code from your authenticator app.',
    );
    expect(getByLabel(container, 'Authentication code')).toBeTruthy();
    expect(onSuccess).not.toHaveBeenCalled();

    await typeInto(getByLabel(container, 'Authentication code'), '123 456');
    await click(getButton(container, 'Verify'));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(getStoredToken()).toBe(token);
    expect(secondStepBodies()).toEqual([
      { challenge: 'ch-1', code: '111111' },
      { challenge: 'ch-1', code: '123 456' },
    ]);
  });

  it('switches to a recovery code and sends it as one', async () => {
    serve();
    const onSuccess = vi.fn();
    const { container } = await renderInApp(<LoginForm onSuccess={onSuccess} />);
    await passPasswordStep(container);

    await click(getButton(container, 'Use a recovery code'));
    const field = getByLabel(container, 'Recovery code') as HTMLInputElement;
    expect(field.getAttribute('autocomplete')).toBe('off');
    expect(() => getByLabel(container, 'Authentication code')).toThrow();
    await typeInto(field, 'abcd-efgh-ijkm');
    await click(getButton(container, 'Verify'));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(secondStepBodies()).toEqual([{ challenge: 'ch-1', recoveryCode: 'abcd-efgh-ijkm' }]);
    // Only the app and recovery codes were offered: no passkey button.
    expect(container.textContent).not.toContain('Use a passkey');
  });

  it('goes back to the password step with the reason when the sign-in expired', async () => {
    serve(
      jsonResponse({ message: 'Too many wrong codes. Please sign in again.', code: 'UNAUTHENTICATED' }, 401),
    );
    const { container } = await renderInApp(<LoginForm />);
    const code = await passPasswordStep(container);
    await typeInto(code, '222222');
    await click(getButton(container, 'Verify'));

    await waitFor(() => getButton(container, 'Sign In'));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'Too many wrong codes. Please sign in again.',
    );
    // The username is still there; the password is asked again.
    expect((getByLabel(container, 'Username') as HTMLInputElement).value).toBe('ada');
    expect((getByLabel(container, 'Password') as HTMLInputElement).value).toBe('');
  });

  it('offers a passkey when the challenge does, and Back returns to the password step', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({
        twoFactorRequired: true,
        challenge: 'ch-2',
        methods: ['passkey', 'recovery'],
        passkeyOptions: { challenge: 'abc', allowCredentials: [] },
      }),
    );
    const { container } = await renderInApp(<LoginForm />);
    await typeInto(getByLabel(container, 'Username'), 'ada');
    await typeInto(getByLabel(container, 'Password'), 'secret-password');
    await click(getButton(container, 'Sign In'));

    // Without an app, the code asked for is a recovery code.
    await waitFor(() => getByLabel(container, 'Recovery code'));
    expect(getButton(container, 'Use a passkey')).toBeTruthy();
    expect(container.textContent).not.toContain('Use your authenticator app');
    await click(getButton(container, 'Back to sign in'));
    expect(getButton(container, 'Sign In')).toBeTruthy();
  });
});
