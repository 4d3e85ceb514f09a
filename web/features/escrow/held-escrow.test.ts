import { describe, expect, it } from 'vitest';
import type { Escrow } from '../../../contract/escrow';
import type { Milestone } from '../../../contract/milestones';
import { heldEscrowOf } from './escrow-state';

const escrow = (fields: Partial<Escrow> = {}): Escrow => ({
  amount: 300.02,
  status: 'locked',
  creatorPaid: true,
  counterpartPaid: true,
  creatorAmount: 150.01,
  counterpartAmount: 150.01,
  expiresAt: null,
  ...fields,
});
type Part = Pick<Milestone, 'status' | 'amount' | 'creatorShare'>;
const part = (status: Milestone['status'], amount: number, creatorShare: number): Part => ({
  status,
  amount,
  creatorShare,
});

describe('heldEscrowOf', () => {
  it('is the money of the milestones funded and not released: what a settlement splits', () => {
    const milestones = [
      part('released', 100.01, 50.01),
      part('submitted', 100.01, 50),
      part('funded', 100, 50),
    ];
    expect(heldEscrowOf(escrow(), milestones)).toEqual(
      escrow({ amount: 200.01, creatorAmount: 100, counterpartAmount: 100.01 }),
    );
  });

  it('is locked while money is held, even with a later milestone still being paid', () => {
    const milestones = [part('funded', 100, 50), part('open', 200, 100)];
    expect(heldEscrowOf(escrow({ status: 'pending', creatorPaid: false }), milestones)).toMatchObject({
      status: 'locked',
      amount: 100,
      creatorAmount: 50,
      counterpartAmount: 50,
    });
  });

  it('is the whole escrow of a deal without a plan, once locked', () => {
    expect(heldEscrowOf(escrow(), [part('funded', 300.02, 150.01)])).toEqual(escrow());
  });

  it('stays as it is when nothing is held, or the escrow is over', () => {
    const pending = escrow({ status: 'pending', creatorPaid: true, counterpartPaid: false });
    expect(heldEscrowOf(pending, [part('open', 300.02, 150.01)])).toBe(pending);
    const settled = escrow({ status: 'settled' });
    expect(heldEscrowOf(settled, [part('settled', 300.02, 150.01)])).toBe(settled);
  });
});
