import { describe, expect, it } from 'vitest';
import { bidOutcomes } from '../../../contract/vocabulary';
import { myBidDealLink, outcomeBadges, selectionText } from './my-bid-texts';
import { newMatchesText } from './saved-searches-panel';

describe('My Bids', () => {
  it('names every outcome', () => {
    expect(bidOutcomes.map((outcome) => outcomeBadges[outcome].label)).toEqual([
      'Pending',
      'Selected by one dealer',
      'Won',
      'Lost',
      'Deal deleted',
    ]);
  });

  it('says who selected the bid', () => {
    expect(selectionText({ selectedByCreator: true, selectedByCounterpart: true })).toBe(
      'Selected by both dealers',
    );
    expect(selectionText({ selectedByCreator: true, selectedByCounterpart: false })).toBe(
      'Selected by the creator',
    );
    expect(selectionText({ selectedByCreator: false, selectedByCounterpart: true })).toBe(
      'Selected by the counterpart',
    );
    expect(selectionText({ selectedByCreator: false, selectedByCounterpart: false })).toBe('Not selected');
  });

  it('links the deal, unless it was deleted', () => {
    const deal = { id: 4, title: 'x', status: 'open' as const, budget: 1 };
    expect(myBidDealLink({ outcome: 'lost', deal })).toBe('/deals/4');
    expect(myBidDealLink({ outcome: 'deal deleted', deal })).toBeNull();
  });

  it("counts a saved search's new matches", () => {
    expect(newMatchesText(1)).toBe('1 new match');
    expect(newMatchesText(3)).toBe('3 new matches');
  });
});
