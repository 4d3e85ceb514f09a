import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, errorMessage } from '../../lib/api';
import { cleanup, click, getButton, getByLabel, renderInApp, typeInto, waitFor } from '../../test/render';
import { jsonResponse } from '../../test/session-fixtures';

// "Confirm it is you" in place: a withdrawal refused for want of a recent second factor goes through
// once the person gave one, without the screen that asked knowing.

const fetchMock = vi.fn<typeof fetch>();
const stepUpRequired = (message: string) => jsonResponse({ message, code: 'STEP_UP_REQUIRED' }, 403);
const status = (withFactor: boolean) => ({
  totp: withFactor,
  passkeys: 0,
  recoveryCodesLeft: withFactor ? 10 : 0,
  stepUpRequired: withFactor,
  freshUntil: null,
});

/** A screen that withdraws and shows what came of it. */
function Withdraw() {
  const [result, setResult] = useState('');
  const withdraw = () =>
    api.post<{ ok: boolean }>('/wallet/withdraw', { amount: 10 }).then(
      () => setResult('withdrawn'),
      (error: unknown) => setResult(`failed: ${errorMessage(error, 'Failed')}`),
    );
  return (
    <>
      <button type="button" onClick={() => void withdraw()}>
        Withdraw
      </button>
      <p id="result">{result}</p>
    </>
  );
}

const calls = (path: string) => fetchMock.mock.calls.filter(([input]) => String(input) === `/api${path}`);
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]');

describe('StepUpDialog', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('asks for a code (a wrong one is said in place), then the withdrawal is sent again and goes through', async () => {
    const stepUps = [
      jsonResponse({ message: 'That code is not right.', code: 'INVALID_SECOND_FACTOR' }, 403),
      jsonResponse({ freshUntil: '2030-01-01T00:00:00.000Z' }),
    ];
    let withdrawals = 0;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/wallet/withdraw') {
        return withdrawals++ === 0
          ? stepUpRequired('Please confirm it is you first: enter a code from your authenticator app.')
          : jsonResponse({ ok: true });
      }
      if (url === '/api/auth/2fa') return jsonResponse(status(true));
      if (url === '/api/auth/step-up') return stepUps.shift()!;
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<Withdraw />);
    await click(getButton(container, 'Withdraw'));

    const asked = await waitFor(() => dialog());
    expect(asked.textContent).toContain('Confirm it is you');
    expect(asked.textContent).toContain(
      'Please confirm it is you first: enter a code from your authenticator app.',
    );
    const code = await waitFor(() => getByLabel(asked, 'Authentication code'));
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await typeInto(code, '000000');
    await click(getButton(asked, 'Confirm'));
    await waitFor(() =>
      expect(asked.querySelector('[role="alert"]')?.textContent).toBe('That code is not right.'),
    );
    expect(container.querySelector('#result')?.textContent).toBe('');

    await typeInto(getByLabel(asked, 'Authentication code'), '123456');
    await click(getButton(asked, 'Confirm'));
    await waitFor(() => expect(container.querySelector('#result')?.textContent).toBe('withdrawn'));
    expect(dialog()).toBeNull();
    expect(calls('/auth/step-up').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
    expect(calls('/wallet/withdraw')).toHaveLength(2);
  });

  it('asks an account without a second factor for its password, and a cancel fails the withdrawal', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/wallet/withdraw') {
        return stepUpRequired('Please confirm it is you first: enter your password.');
      }
      if (url === '/api/auth/2fa') return jsonResponse(status(false));
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<Withdraw />);
    await click(getButton(container, 'Withdraw'));

    const asked = await waitFor(() => dialog());
    const password = await waitFor(() => getByLabel(asked, 'Password'));
    expect(password.getAttribute('type')).toBe('password');
    expect(asked.textContent).not.toContain('Use a recovery code');

    await click(getButton(asked, 'Cancel'));
    await waitFor(() =>
      expect(container.querySelector('#result')?.textContent).toBe(
        'failed: Please confirm it is you first: enter your password.',
      ),
    );
    expect(dialog()).toBeNull();
    expect(calls('/wallet/withdraw')).toHaveLength(1);
    expect(calls('/auth/step-up')).toHaveLength(0);
  });

  it('switches to a recovery code', async () => {
    let withdrawals = 0;
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/wallet/withdraw') {
        return withdrawals++ === 0 ? stepUpRequired('Confirm it is you.') : jsonResponse({ ok: true });
      }
      if (url === '/api/auth/2fa') return jsonResponse(status(true));
      if (url === '/api/auth/step-up') return jsonResponse({ freshUntil: '2030-01-01T00:00:00.000Z' });
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<Withdraw />);
    await click(getButton(container, 'Withdraw'));
    const asked = await waitFor(() => dialog());
    await click(await waitFor(() => getButton(asked, 'Use a recovery code')));
    await typeInto(getByLabel(asked, 'Recovery code'), 'abcd-efgh-ijkm');
    await click(getButton(asked, 'Confirm'));
    await waitFor(() => expect(container.querySelector('#result')?.textContent).toBe('withdrawn'));
    expect(JSON.parse(String(calls('/auth/step-up')[0]![1]?.body))).toEqual({
      recoveryCode: 'abcd-efgh-ijkm',
    });
  });
});
