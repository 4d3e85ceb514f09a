import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStoredToken, storeToken } from '../../lib/auth-token';
import { cleanup, click, getButton, renderInApp, typeInto, waitFor } from '../../test/render';
import { jsonResponse, signedInUser } from '../../test/session-fixtures';
import { WalletMovementForm } from './wallet-movement-form';

const fetchMock = vi.fn<typeof fetch>();
const json = jsonResponse;
const dave = signedInUser({ id: 9, username: 'dave', full_name: 'Dave Miller' });

describe('WalletMovementForm confirmation', () => {
  let answerWallet: (response: Response) => void;

  beforeEach(() => {
    const wallet = new Promise<Response>((resolve) => {
      answerWallet = resolve;
    });
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(async (request) => {
      const url = String(request);
      if (url === '/api/user-profile') return json(dave.profile);
      // The wallet answers only when the test says so: a slow first load.
      if (url === '/api/wallet') return wallet;
      throw new Error(`Unexpected call ${url}`);
    });
    storeToken(dave.token);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    clearStoredToken();
  });

  it('adds the balance lines once the wallet arrives while the dialog is open', async () => {
    const { container } = await renderInApp(
      <WalletMovementForm
        kind="deposit"
        title="Deposit Money"
        description="Deposits are simulated."
        submitLabel="Deposit"
        maxCents={1_000_000}
        tooMuch={() => 'Too much'}
        hint="From $0.01."
        success={() => 'Deposited'}
        failure="Failed"
      />,
    );
    await typeInto(container.querySelector('input[name="amount"]'), '25.50');
    await click(getButton(container, 'Deposit'));

    const dialog = await waitFor(() => document.querySelector('[role="alertdialog"]'));
    expect(dialog.textContent).toContain(
      'Deposit $25.50 into your wallet (simulated: no card or bank is charged).',
    );
    expect(dialog.textContent).not.toContain('Balance after');

    answerWallet(json({ balance: 100.25, totalDeposited: 100.25, totalWithdrawn: 0 }));
    await waitFor(() =>
      document.querySelector('[role="alertdialog"]')?.textContent?.includes('Balance after'),
    );
    const facts = [...document.querySelectorAll('[role="alertdialog"] dl > div')].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(facts).toEqual([
      ['Your balance now', '$100.25'],
      ['Balance after', '$125.75'],
    ]);
    expect(document.querySelector('[role="alertdialog"]')?.textContent).toContain(
      'Deposit $25.50 into your wallet (simulated: no card or bank is charged). Balance after: $125.75.',
    );
  });
});
