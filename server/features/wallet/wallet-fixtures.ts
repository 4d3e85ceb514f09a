import { expect } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { ServerEvents } from '../../../contract/realtime';
import type { Audience } from '../../realtime/publisher';
import { type SignedUpUser, signUp, type TestServer } from '../../test/harness';

/** Test helpers for the wallet, escrow and completion suites: everything goes through the real API. */

let dealCounter = 0;

export function signUpMany(server: TestServer, count: number): Promise<SignedUpUser[]> {
  return Promise.all(Array.from({ length: count }, () => signUp(server)));
}

/** A deal with a joined counterpart and a dealmaker (assigned by an accepted request). */
export async function dealWithDealmaker(
  server: TestServer,
  people: { creator: SignedUpUser; counterpart?: SignedUpUser | null; dealmaker: SignedUpUser },
  budget = 100,
): Promise<Deal> {
  dealCounter++;
  const created = await server.post<Deal>('/api/deals/create-deal', {
    token: people.creator.token,
    body: {
      title: `Escrow deal ${dealCounter}`,
      description: `Deal ${dealCounter} for the money tests`,
      budget,
      timeline: '1 week',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const dealId = created.body.id;
  if (people.counterpart) {
    const joined = await server.put(`/api/deals/join-deal-as-dealer/${dealId}`, {
      token: people.counterpart.token,
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  }
  const sent = await server.post('/api/request-dealmaker/send-request', {
    token: people.creator.token,
    body: { dealId, receiverUsername: people.dealmaker.username },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const accepted = await server.post(`/api/request-dealmaker/accept/${sent.body.id}`, {
    token: people.dealmaker.token,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return accepted.body.deal as Deal;
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

/** Records every event the services publish (they are published after commit). */
export function captureEvents(server: TestServer) {
  const events: CapturedEvent[] = [];
  const detach = server.app.services.events.attach({
    publish(audience, event, payload) {
      events.push({ audience, event, payload: payload as CapturedEvent['payload'] });
    },
    leaveDeal() {},
  });
  return {
    events,
    detach,
    clear: () => {
      events.length = 0;
    },
    of: (event: keyof ServerEvents) => events.filter((e) => e.event === event),
    notificationsTo: (userId: number) =>
      events.filter((e) => e.event === 'notification' && e.audience.users?.includes(userId)),
  };
}
