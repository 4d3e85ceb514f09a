import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nothingAllowed } from '../../../contract/vocabulary';
import { cleanup, getButton, renderInApp, waitFor } from '../../test/render';
import { jsonResponse as json } from '../../test/session-fixtures';
import { EscrowPaymentActions } from './escrow-payment-actions';
import { escrowViewOf } from './escrow-state';
import { useEscrowPayment } from './use-escrow-payment';

const fetchMock = vi.fn<typeof fetch>();
const deal = {
  id: 4,
  title: 'Courier company',
  budget: 10500,
  dealer_creator: 'alice',
  dealer_joined: 'bob',
  dealmaker: 'erin',
  is_completed: false,
  can: { ...nothingAllowed, payEscrow: true as const },
};
const wallet = (balance: number) => ({ balance, totalDeposited: balance, totalWithdrawn: 0 });

/** The actions as the Escrow Payment Status box draws them for alice, who may pay her half. */
function Actions() {
  const payment = useEscrowPayment(deal.id);
  return <EscrowPaymentActions deal={deal} view={escrowViewOf(deal, null, 'alice')} payment={payment} />;
}

const confirmation = () => document.querySelector('[role="alertdialog"]');

describe('EscrowPaymentActions', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('says before the click that the balance is short, links to the wallet and disables the payment', async () => {
    fetchMock.mockImplementation(async (input) => {
      if (String(input) === '/api/wallet') return json(wallet(0));
      throw new Error(`Unexpected call ${String(input)}`);
    });
    const { container } = await renderInApp(<Actions />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => getButton(container, 'Pay my half').click());
    await waitFor(() => expect(confirmation()?.textContent).toContain('Your balance is'));
    const asked = confirmation()!;
    expect(asked.textContent).toContain('Your balance is $0.00: you need $5,250.00. Deposit first.');
    const link = [...asked.querySelectorAll('a')].find((a) => a.textContent === 'Deposit first');
    expect(link?.getAttribute('href')).toBe('/deposit');
    expect(getButton(asked, 'Pay my half').disabled).toBe(true);
    // Enter does not pay either.
    await act(async () => {
      asked.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(['/api/wallet']);
  });

  it('keeps a refusal that links to the wallet until it is closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The balance is not known yet (its call still runs): the server answers for it.
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/wallet') return new Promise<Response>(() => {});
      if (url === '/api/wallet/escrow/4/lock') {
        return json({ message: 'Insufficient balance: you need $5,250.00', code: 'INSUFFICIENT_FUNDS' }, 400);
      }
      // After the refusal the deal is asked for again.
      if (url === '/api/deals/4') return json(deal);
      throw new Error(`Unexpected call ${url}`);
    });
    const { container } = await renderInApp(<Actions />);
    await act(async () => getButton(container, 'Pay my half').click());
    await act(async () => getButton(confirmation()!, 'Pay my half').click());
    await waitFor(() => expect(container.textContent).toContain('Insufficient balance: you need $5,250.00'));
    expect(container.querySelector('a[href="/deposit"]')?.textContent).toBe('Go to Wallet & Deposits');
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(container.textContent).toContain('Insufficient balance: you need $5,250.00');
    await act(async () =>
      container.querySelector<HTMLButtonElement>('button[aria-label="Dismiss"]')?.click(),
    );
    expect(container.textContent).not.toContain('Insufficient balance');
  });
});
