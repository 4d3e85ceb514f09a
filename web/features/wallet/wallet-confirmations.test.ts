import { describe, expect, it } from 'vitest';
import { movementConfirmation } from './wallet-confirmations';

const action = { onConfirm: () => undefined };

describe('movementConfirmation', () => {
  it('states a deposit and the balance after it', () => {
    const asked = movementConfirmation('deposit', 2_500_000, 50, action);
    expect(asked.message).toBe(
      'Deposit $25,000.00 into your wallet (simulated: no card or bank is charged). Balance after: $25,000.50.',
    );
    expect(asked.confirmLabel).toBe('Deposit');
    expect(asked.facts).toEqual([
      { label: 'Your balance now', value: '$0.50' },
      { label: 'Balance after', value: '$25,000.50' },
    ]);
  });

  it('states a withdrawal and the balance after it', () => {
    const asked = movementConfirmation('withdraw', 5_000, 1_975_000, action);
    expect(asked.message).toBe('Withdraw $50.00 from your wallet. Balance after: $19,700.00.');
    expect(asked.confirmLabel).toBe('Withdraw');
  });

  it('leaves the balance out while it is unknown', () => {
    expect(movementConfirmation('withdraw', 1, undefined, action).message).toBe(
      'Withdraw $0.01 from your wallet.',
    );
  });
});
