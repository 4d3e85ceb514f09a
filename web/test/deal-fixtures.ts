import type { Deal } from '../../contract/deals';

/**
 * A deal as the API answers it, with the given fields changed (for unit tests): by default an open deal
 * as someone with no part in it sees it, who may join it or bid (`can`).
 */
export function makeDeal(overrides: Partial<Deal> = {}): Deal {
  return {
    id: 1,
    title: 'Coffee distribution',
    description: 'A partner for organic coffee in Europe',
    budget: 5000,
    timeline: '3 months',
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    dealer_creator: 'alice',
    dealer_joined: null,
    dealmaker: null,
    is_completed: false,
    completion_date: null,
    completed_by_creator: false,
    completed_by_counterpart: false,
    selected_bid_by_creator: null,
    selected_bid_by_dealer: null,
    escrow_paid: false,
    settled: false,
    joinPolicy: 'open',
    my_bid: null,
    can: { join: true, bid: true },
    ...overrides,
  };
}
