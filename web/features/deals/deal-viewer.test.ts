import { describe, expect, it } from 'vitest';
import { makeDeal } from '../../test/deal-fixtures';
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
