import { describe, expect, it } from 'vitest';
import { makeDeal } from '../../test/deal-fixtures';
import { bidSelectionOf, dealCardActions, isSelectedByViewer } from './deal-rules';
import { dealRoleOf, dealViewerOf } from './deal-viewer';

describe('dealRoleOf', () => {
  const deal = makeDeal({ dealer_creator: 'alice', dealer_joined: 'Bob', dealmaker: 'carol' });

  it('names the creator, the counterpart and the dealmaker, ignoring case', () => {
    expect(dealRoleOf(deal, 'alice')).toBe('creator');
    expect(dealRoleOf(deal, 'bob')).toBe('counterpart');
    expect(dealRoleOf(deal, 'CAROL')).toBe('dealmaker');
    expect(dealRoleOf(deal, 'dave')).toBeNull();
    expect(dealRoleOf(deal, null)).toBeNull();
  });

  it('counts creator and counterpart as dealers', () => {
    expect(dealViewerOf(deal, 'alice').isDealer).toBe(true);
    expect(dealViewerOf(deal, 'bob').isDealer).toBe(true);
    expect(dealViewerOf(deal, 'carol').isDealer).toBe(false);
  });
});

describe('dealCardActions', () => {
  it('offers the creator Delete Deal, or the protected note once escrow is paid', () => {
    expect(dealCardActions(makeDeal(), 'alice')).toEqual(['delete']);
    expect(dealCardActions(makeDeal({ escrow_paid: true }), 'alice')).toEqual(['delete-protected']);
  });

  it('offers the counterpart Leave Deal, or the protected note once escrow is paid', () => {
    expect(dealCardActions(makeDeal({ dealer_joined: 'bob' }), 'bob')).toEqual(['leave']);
    expect(dealCardActions(makeDeal({ dealer_joined: 'bob', escrow_paid: true }), 'bob')).toEqual([
      'leave-protected',
    ]);
  });

  it('offers anyone else Join Deal while nobody has joined, and a bid while there is no dealmaker', () => {
    expect(dealCardActions(makeDeal(), 'dave')).toEqual(['join', 'bid']);
    expect(dealCardActions(makeDeal({ dealer_joined: 'bob' }), 'dave')).toEqual(['bid']);
  });

  it('offers a bidder Update Bid and Delete Bid instead of a new bid, and no Join Deal', () => {
    expect(dealCardActions(makeDeal({ my_bid: { id: 7, price: 100 } }), 'dave')).toEqual([
      'update-bid',
      'delete-bid',
    ]);
  });

  it('closes joining and bidding once the deal has a dealmaker or is completed', () => {
    const finalized = makeDeal({ dealer_joined: 'bob', dealmaker: 'carol', my_bid: { id: 7, price: 100 } });
    expect(dealCardActions(finalized, 'carol')).toEqual([]);
    expect(dealCardActions(finalized, 'dave')).toEqual([]);
    expect(dealCardActions(makeDeal({ dealmaker: 'carol' }), 'carol')).toEqual([]);
    expect(dealCardActions(makeDeal({ dealmaker: 'carol' }), 'dave')).toEqual(['join']);
    expect(dealCardActions(makeDeal({ is_completed: true }), 'dave')).toEqual([]);
  });

  it('never offers a dealer a bid', () => {
    expect(dealCardActions(makeDeal({ dealer_joined: 'bob' }), 'alice')).toEqual(['delete']);
  });
});

describe('bidSelectionOf', () => {
  it('tells who selected a bid: the creator, the counterpart, both or nobody', () => {
    expect(bidSelectionOf(makeDeal({ selected_bid_by_creator: 3 }), 3)).toBe('creator');
    expect(bidSelectionOf(makeDeal({ selected_bid_by_dealer: 3 }), 3)).toBe('counterpart');
    expect(bidSelectionOf(makeDeal({ selected_bid_by_creator: 3, selected_bid_by_dealer: 3 }), 3)).toBe(
      'both',
    );
    expect(bidSelectionOf(makeDeal({ selected_bid_by_creator: 4, selected_bid_by_dealer: 5 }), 3)).toBe(
      'none',
    );
    expect(bidSelectionOf(makeDeal(), 3)).toBe('none');
  });

  it("knows whether the viewer's own selection is on a bid", () => {
    const deal = makeDeal({ dealer_joined: 'bob', selected_bid_by_creator: 3, selected_bid_by_dealer: 4 });
    expect(isSelectedByViewer(deal, 3, 'creator')).toBe(true);
    expect(isSelectedByViewer(deal, 3, 'counterpart')).toBe(false);
    expect(isSelectedByViewer(deal, 4, 'counterpart')).toBe(true);
    expect(isSelectedByViewer(deal, 3, null)).toBe(false);
  });
});
