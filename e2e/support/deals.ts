import type { APIResponse } from '@playwright/test';
import type { Actor } from './fixtures';

/**
 * Setting up deals through the API, for the parts of a journey that are not what it is about.
 * Every call is made as the given actor, with their bearer token.
 */

export type DealSummary = { id: number; title: string; budget: number };

async function call(actor: Actor, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  // The web app's own calls are not what these helpers are about; they speak to the API directly.
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

/** The actor writes in the deal's chat. */
export async function sendMessage(actor: Actor, dealId: number, content: string) {
  return call(actor, 'POST', '/api/messages/send', { dealId, content });
}

/** What the server holds, read as the actor: their wallet, a deal as they see it, its escrow. */
export const walletOf = (actor: Actor): Promise<{ balance: number }> => call(actor, 'GET', '/api/wallet');
export const dealAs = (actor: Actor, dealId: number) => call(actor, 'GET', `/api/deals/${dealId}`);
export const escrowAs = (actor: Actor, dealId: number) => call(actor, 'GET', `/api/wallet/escrow/${dealId}`);

/** A bid on the deal by the actor. */
export async function placeBid(actor: Actor, dealId: number, price: number) {
  return call(actor, 'POST', '/api/bidding/create', { dealId, price });
}

/** A dealer asks a user to be the deal's dealmaker; answers the request. */
export async function requestDealmaker(dealer: Actor, dealId: number, receiver: Actor) {
  return call(dealer, 'POST', '/api/request-dealmaker/send-request', {
    dealId,
    receiverUsername: receiver.user.username,
  });
}

/** Both dealers deposit their half and pay it: the deal's escrow is locked. */
export async function lockEscrow(people: { creator: Actor; counterpart: Actor }, deal: DealSummary) {
  const escrow = (await escrowAs(people.creator, deal.id)).escrow as {
    creatorAmount: number;
    counterpartAmount: number;
  };
  await deposit(people.creator, escrow.creatorAmount);
  await deposit(people.counterpart, escrow.counterpartAmount);
  await payEscrowHalf(people.creator, deal.id);
  await payEscrowHalf(people.counterpart, deal.id);
}

/** A dealer raises a dispute on the deal; its id. */
export async function raiseDispute(dealer: Actor, dealId: number, title: string, description: string) {
  const dispute = await call(dealer, 'POST', '/api/disputes', { dealId, title, description });
  return dispute.id as number;
}

/** A dealer sends the dispute to the operators now. */
export async function escalateDispute(dealer: Actor, disputeId: number) {
  await call(dealer, 'POST', `/api/disputes/${disputeId}/escalate`);
}

/** A participant proposes how much of the locked escrow goes to the dealmaker. */
export async function proposeSettlement(actor: Actor, disputeId: number, toDealmaker: number) {
  return call(actor, 'POST', `/api/disputes/${disputeId}/proposals`, { toDealmaker });
}
