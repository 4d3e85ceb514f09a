import { describe, expect, it } from 'vitest';
import { makeDeal } from '../../test/deal-fixtures';
import { bidSelectionOf, isSelectedByViewer } from './bid-selection';

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
