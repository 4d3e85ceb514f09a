import { expect } from 'vitest';
import type { Deal } from '../../contract/deals';
import type { ServerEvents } from '../../contract/realtime';
import type { Audience } from '../lib/events';
import { assignDealmakerByRequest, createDeal, joinDeal } from './deal-fixtures';
import type { SignedUpUser, TestServer } from './harness';
import { recordEvents } from './recorded-events';

/** Test helpers for the wallet, escrow and completion suites: everything goes through the real API. */

let dealCounter = 0;

export { signUpMany } from './deal-fixtures';

/** A deal with a joined counterpart and a dealmaker (assigned by an accepted request). */
export async function dealWithDealmaker(
  server: TestServer,
  people: { creator: SignedUpUser; counterpart?: SignedUpUser | null; dealmaker: SignedUpUser },
  budget = 100,
): Promise<Deal> {
  dealCounter++;
  const deal = await createDeal(server, people.creator, {
    title: `Escrow deal ${dealCounter}`,
    description: `Deal ${dealCounter} for the money tests`,
    budget,
    timeline: '1 week',
  });
  if (people.counterpart) await joinDeal(server, people.counterpart, deal.id);
  return assignDealmakerByRequest(server, people.creator, deal.id, people.dealmaker);
}

export async function deposit(server: TestServer, user: SignedUpUser, amount: number, key?: string) {
  const response = await server.post('/api/wallet/deposit', {
    token: user.token,
    body: { amount },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function balanceOf(server: TestServer, user: SignedUpUser): Promise<number> {
  const response = await server.get('/api/wallet', { token: user.token });
  expect(response.status).toBe(200);
  return response.body.balance;
}

export const payHalf = (server: TestServer, user: SignedUpUser, dealId: number, key?: string) =>
  server.post(`/api/wallet/escrow/${dealId}/lock`, {
    token: user.token,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

export const refundHalf = (server: TestServer, user: SignedUpUser, dealId: number, key?: string) =>
  server.post(`/api/wallet/escrow/${dealId}/refund`, {
    token: user.token,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

export const markFinished = (server: TestServer, user: SignedUpUser, dealId: number) =>
  server.put(`/api/progress/deal/${dealId}/complete`, { token: user.token });

export type CapturedEvent = {
  audience: Audience;
  event: keyof ServerEvents;
  payload: { [field: string]: unknown; kind?: string };
};

/** Every event the services publish (after commit), with lookups the money suites use. */
export function captureEvents(server: TestServer) {
  const recorder = recordEvents(server);
  const events = recorder.events as CapturedEvent[];
  return {
    events,
    detach: recorder.detach,
    clear: () => {
      events.length = 0;
    },
    of: (event: keyof ServerEvents) => events.filter((e) => e.event === event),
    notificationsTo: (userId: number) =>
      events.filter((e) => e.event === 'notification' && e.audience.users?.includes(userId)),
  };
}
