import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { AuthService } from './features/auth/auth.service';
import { BidsService } from './features/deals/bids.service';
import { DealmakerRequestsService } from './features/deals/dealmaker-requests.service';
import { DealsService } from './features/deals/deals.service';
import { DisputesService } from './features/disputes/disputes.service';
import { MessagesService } from './features/messages/messages.service';
import { ProfileService } from './features/profile/profile.service';
import { ProgressService } from './features/progress/progress.service';
import { ReviewsService } from './features/reviews/reviews.service';
import { UsersService } from './features/users/users.service';
import { CompletionService } from './features/wallet/completion.service';
import { EscrowService } from './features/wallet/escrow.service';
import { WalletService } from './features/wallet/wallet.service';
import type { Mailer } from './lib/mail';
import { EventPublisher } from './realtime/publisher';

export type ServiceDeps = { config: Config; db: Db; mailer: Mailer; log: FastifyBaseLogger };

/** Builds every feature's service once; features reach each other only through these. */
export async function createServices(deps: ServiceDeps) {
  const { db } = deps;
  const events = new EventPublisher();
  const auth = await AuthService.create(deps);
  const wallet = new WalletService(db);
  // Escrow and deals need each other: the escrow reaches the deals service once both exist.
  const escrow = new EscrowService(db, wallet, events, deps.log, () => deals);
  const deals = new DealsService(db, escrow, events);
  const users = new UsersService(db, (dealId) => deals.participantIds(dealId));
  const profile = new ProfileService(db);
  const bids = new BidsService(db, deals, events);
  const dealmakerRequests = new DealmakerRequestsService(db, deals, users, events);
  const messages = new MessagesService(db, deals, events);
  const progress = new ProgressService(db, deals, events);
  const reviews = new ReviewsService(db, deals, users, events);
  const disputes = new DisputesService(db, deals, events);
  const completion = new CompletionService(db, deals, escrow, disputes, events, deps.log);
  return {
    db,
    events,
    auth,
    users,
    profile,
    wallet,
    escrow,
    completion,
    deals,
    bids,
    dealmakerRequests,
    messages,
    progress,
    reviews,
    disputes,
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
