import {
  dealWithDealmaker,
  deposit,
  escalateDispute,
  lockEscrow,
  payEscrowHalf,
  raiseDispute,
  sendMessage,
  uniqueWord,
} from './deals';
import type { Actor } from './fixtures';
import { grantOperator } from './operator';

/**
 * Every route of the app (spec §2 Routes) with real content behind it, for the checks that walk them all
 * (phone widths, accessibility). The deal pages are a deal with a dealmaker as its creator sees it
 * (escrow with a half paid, chat, actions) and the same deal for an outsider; the creator's wallet
 * has a deposit and an escrow payment. The creator is also an operator, and a second deal of theirs has an
 * escalated dispute on a locked escrow, so the Operator console shows a dispute to settle.
 */
export type RouteVisit = { name: string; path: string };

export async function allRoutes(people: {
  creator: Actor;
  counterpart: Actor;
  dealmaker: Actor;
}): Promise<{ signedOut: RouteVisit[]; signedIn: RouteVisit[]; outsider: RouteVisit }> {
  const deal = await dealWithDealmaker(people, {
    title: `Acquisition of a regional courier company with depots in three provinces ${uniqueWord('r')}`,
    description: 'A deal with a dealmaker, so its page shows every section.',
    budget: 10500,
    timeline: '6 weeks',
  });
  // A wallet with history, a half paid and a chat with something in it.
  await deposit(people.creator, 25000);
  await payEscrowHalf(people.creator, deal.id);
  await sendMessage(people.creator, deal.id, 'Here is the signed letter of intent for the courier company.');
  await sendMessage(people.dealmaker, deal.id, 'Thanks, I will start the due diligence on Monday.');
  const disputed = await dealWithDealmaker(people, {
    title: `Disputed purchase of a printing press ${uniqueWord('o')}`,
    description: 'A deal whose dispute went to the operators.',
    budget: 2400.5,
    timeline: '2 weeks',
  });
  await lockEscrow(people, disputed);
  const disputeId = await raiseDispute(
    people.counterpart,
    disputed.id,
    'The press was delivered without its manuals',
    'The seller promised the manuals and the spare parts list with the press.',
  );
  await escalateDispute(people.counterpart, disputeId);
  await grantOperator(people.creator);
  const publicRoutes: RouteVisit[] = [
    { name: 'landing', path: '/' },
    { name: 'about', path: '/about' },
    { name: 'login', path: '/login' },
    { name: 'register', path: '/register' },
    { name: 'verify email', path: '/api/auth/register/not-a-real-key' },
    { name: 'reset password', path: '/api/auth/reset_password/nobody/not-a-token' },
    { name: 'confirm email', path: '/confirm-email/not-a-real-token' },
    { name: '404', path: '/no-such-page' },
  ];
  const signedInRoutes: RouteVisit[] = [
    { name: 'deals', path: '/deals' },
    {
      name: 'deals filtered',
      path: '/deals?q=courier&status=open%2Cin_progress&minBudget=1000&sort=budget_desc',
    },
    { name: 'my bids', path: '/bids' },
    { name: 'deal (participant)', path: `/deals/${deal.id}` },
    { name: 'unknown deal', path: '/deals/999999999' },
    { name: 'dealmaker panel', path: '/dealmaker-panel' },
    { name: 'wallet', path: '/deposit' },
    { name: 'users', path: '/users' },
    { name: 'user profile', path: `/users/${people.counterpart.user.username}` },
    { name: 'profile', path: '/profile' },
    { name: 'operator console', path: '/operator' },
  ];
  return {
    // Signed out, the signed-in routes send the visitor home with the login dialog open.
    signedOut: [...publicRoutes, ...signedInRoutes.filter((route) => route.name !== 'deal (participant)')],
    signedIn: [...publicRoutes, ...signedInRoutes],
    // The same deal for a signed-in user who has no part in it.
    outsider: { name: 'deal (outsider)', path: `/deals/${deal.id}` },
  };
}
