import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/auth.routes';
import { dealmakerRequestsRoutes } from './deals/dealmaker-requests.routes';
import { dealsRoutes } from './deals/deals.routes';
import { disputesRoutes } from './disputes/disputes.routes';
import { healthRoutes } from './health/health.routes';
import { messagesRoutes } from './messages/messages.routes';
import { profileRoutes } from './profile/profile.routes';
import { progressRoutes } from './progress/progress.routes';
import { reviewsRoutes } from './reviews/reviews.routes';
import { usersRoutes } from './users/users.routes';
import { completionRoutes } from './wallet/completion.routes';
import { escrowRoutes } from './wallet/escrow.routes';
import { walletRoutes } from './wallet/wallet.routes';

/** Every feature's routes. Paths are written in full (spec §7 paths under /api), so a grep for a path finds its route. */
export const registerRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(profileRoutes);
  await app.register(dealsRoutes);
  await app.register(dealmakerRequestsRoutes);
  await app.register(messagesRoutes);
  await app.register(progressRoutes);
  await app.register(reviewsRoutes);
  await app.register(disputesRoutes);
  await app.register(walletRoutes);
  await app.register(escrowRoutes);
  await app.register(completionRoutes);
};
