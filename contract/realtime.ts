import type { Bid, Deal, DealmakerRequest } from './deals';

/** updateType values of spec §9 (plus 'sent' for messages and the request/bid life-cycle words). */
export type UpdateType =
  | 'created'
  | 'joined'
  | 'left'
  | 'dealmaker-assigned'
  | 'finalized'
  | 'updated'
  | 'deleted'
  | 'selected'
  | 'accepted'
  | 'rejected'
  | 'canceled'
  | 'sent';

export type DealEvent<T> = { dealId: number; data: T; updateType: UpdateType };

export type NotificationPayload = { message: string; dealId?: number; kind: string };

/** Server → client events (spec §7 Realtime events). */
export type ServerEvents = {
  'deal-updated': DealEvent<Deal | { id: number }>;
  'bid-updated': DealEvent<Bid | { id: number }>;
  'dealmaker-request-updated': DealEvent<DealmakerRequest | { id: number }>;
  notification: NotificationPayload;
};
