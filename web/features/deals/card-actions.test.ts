import { describe, expect, it } from 'vitest';
import type { DealCan } from '../../../contract/deals';
import { nothingAllowed } from '../../../contract/vocabulary';
import { makeDeal } from '../../test/deal-fixtures';
import { dealCardActions } from './card-actions';

/** What the server answered the viewer may do (server/core/deal/deal-policy.ts decides; its tests say when). */
const can = (allowed: Partial<DealCan> = {}): DealCan => ({ ...nothingAllowed, ...allowed });

describe('dealCardActions', () => {
  it('offers the creator Delete Deal, or the protected note once escrow is paid', () => {
    expect(dealCardActions(makeDeal({ can: can({ delete: true }) }), { role: 'creator' })).toEqual([
      'delete',
    ]);
    expect(dealCardActions(makeDeal({ escrow_paid: true, can: can() }), { role: 'creator' })).toEqual([
      'delete-protected',
    ]);
  });

  it('offers the counterpart Leave Deal, or the protected note once escrow is paid', () => {
    const joined = { dealer_joined: 'bob' };
    const leave = makeDeal({ ...joined, can: can({ leave: true, selectBid: true }) });
    expect(dealCardActions(leave, { role: 'counterpart' })).toEqual(['leave']);
    const paid = makeDeal({ ...joined, escrow_paid: true, can: can({ payEscrow: true }) });
    expect(dealCardActions(paid, { role: 'counterpart' })).toEqual(['leave-protected']);
  });

  it('offers anyone else Join Deal and a bid as the server allows them', () => {
    expect(dealCardActions(makeDeal({ can: can({ join: true, bid: true }) }), { role: null })).toEqual([
      'join',
      'bid',
    ]);
    expect(dealCardActions(makeDeal({ can: can({ bid: true }) }), { role: null })).toEqual(['bid']);
  });

  it('offers a bidder Update Bid and Delete Bid', () => {
    const deal = makeDeal({ my_bid: { id: 7, price: 100 }, can: can({ updateBid: true, deleteBid: true }) });
    expect(dealCardActions(deal, { role: null })).toEqual(['update-bid', 'delete-bid']);
  });

  it('offers the creator Edit Deal and Remove Counterpart as the server allows them', () => {
    const joined = makeDeal({
      dealer_joined: 'bob',
      can: can({ edit: true, delete: true, removeCounterpart: true }),
    });
    expect(dealCardActions(joined, { role: 'creator' })).toEqual(['edit', 'delete', 'remove-counterpart']);
    // With a dealmaker and a half paid: neither, and the protected note.
    const paid = makeDeal({ dealer_joined: 'bob', dealmaker: 'carol', escrow_paid: true, can: can() });
    expect(dealCardActions(paid, { role: 'creator' })).toEqual(['delete-protected']);
  });

  it('offers Ask to Join in Join Deal’s place on a deal whose creator accepts who joins', () => {
    const approval = makeDeal({ joinPolicy: 'approval', can: can({ askToJoin: true, bid: true }) });
    expect(dealCardActions(approval, { role: null })).toEqual(['ask-to-join', 'bid']);
  });

  it('offers nothing the server does not allow', () => {
    const withDealmaker = makeDeal({ dealmaker: 'carol', can: can({ addProgress: true }) });
    expect(dealCardActions(withDealmaker, { role: 'dealmaker' })).toEqual([]);
    expect(dealCardActions(makeDeal({ escrow_paid: true, can: can() }), { role: null })).toEqual([]);
  });
});
