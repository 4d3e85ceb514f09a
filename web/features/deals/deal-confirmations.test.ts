import { describe, expect, it } from 'vitest';
import { removeCounterpartConfirmation } from './deal-confirmations';

const action = { onConfirm: () => undefined };

describe('removeCounterpartConfirmation', () => {
  it('says who goes, that their bid selection goes with them, and who may come instead', () => {
    const open = removeCounterpartConfirmation(
      { title: 'Coffee distribution', dealer_joined: 'bob', joinPolicy: 'open' },
      action,
    );
    expect(open.title).toBe('Remove the counterpart?');
    expect(open.message).toBe(
      "Remove @bob from 'Coffee distribution'. Their bid selection goes with them, and another dealer may join in their place.",
    );
    expect(open.confirmLabel).toBe('Remove Counterpart');
    expect(open.variant).toBe('danger');
    const approval = removeCounterpartConfirmation(
      { title: 'Coffee distribution', dealer_joined: 'bob', joinPolicy: 'approval' },
      action,
    );
    expect(approval.message).toContain('another dealer may ask to join in their place.');
  });
});
