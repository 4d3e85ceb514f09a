import type { APIResponse } from '@playwright/test';
import type { Actor } from './fixtures';

/**
 * Setting up deals through the API, for the parts of a journey that are not what it is about.
 * Every call is made as the given actor, with their bearer token.
 */

export type DealSummary = { id: number; title: string; budget: number };

async function call(actor: Actor, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const response: APIResponse = await actor.context.request.fetch(path, {
    method,
    data,
    headers: { authorization: `Bearer ${actor.token}` },
  });
  if (!response.ok()) {
    throw new Error(
      `${method} ${path} as ${actor.user.username} failed (${response.status()}): ${await response.text()}`,
    );
  }
  return response.json();
}

/** A word no other deal holds, to find a deal with the Deals page search. */
export function uniqueWord(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export async function createDeal(
  creator: Actor,
  deal: { title: string; description: string; budget: number; timeline: string },
): Promise<DealSummary> {
  const created = await call(creator, 'POST', '/api/deals/create-deal', deal);
  return { id: created.id, title: created.title, budget: created.budget };
}

export async function joinDeal(counterpart: Actor, dealId: number) {
  await call(counterpart, 'PUT', `/api/deals/join-deal-as-dealer/${dealId}`);
}

/** The creator requests the dealmaker by username and the dealmaker accepts. */
export async function hireDealmaker(creator: Actor, dealmaker: Actor, dealId: number) {
  const request = await call(creator, 'POST', '/api/request-dealmaker/send-request', {
    dealId,
    receiverUsername: dealmaker.user.username,
  });
  await call(dealmaker, 'POST', `/api/request-dealmaker/accept/${request.id}`);
}

/** A deal created by `creator`, joined by `counterpart`, with `dealmaker` hired. */
export async function dealWithDealmaker(
  people: { creator: Actor; counterpart: Actor; dealmaker: Actor },
  deal: { title: string; description: string; budget: number; timeline: string },
): Promise<DealSummary> {
  const created = await createDeal(people.creator, deal);
  await joinDeal(people.counterpart, created.id);
  await hireDealmaker(people.creator, people.dealmaker, created.id);
  return created;
}

/** A deposit into the actor's wallet. */
export async function deposit(actor: Actor, amount: number) {
  await call(actor, 'POST', '/api/wallet/deposit', { amount });
}

/** The actor pays their half of the deal's escrow. */
export async function payEscrowHalf(actor: Actor, dealId: number) {
  return call(actor, 'POST', `/api/wallet/escrow/${dealId}/lock`);
}
