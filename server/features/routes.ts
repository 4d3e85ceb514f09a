import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/auth.routes';
import { dealmakerRequestsRoutes } from './deals/dealmaker-requests.routes';
import { dealsRoutes } from './deals/deals.routes';
import { healthRoutes } from './health/health.routes';
import { messagesRoutes } from './messages/messages.routes';
import { profileRoutes } from './profile/profile.routes';
import { usersRoutes } from './users/users.routes';

/** Every feature's routes. Paths are written in full (spec §7 paths under /api), so a grep for a path finds its route. */
export const registerRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(profileRoutes);
  await app.register(dealsRoutes);
  await app.register(dealmakerRequestsRoutes);
  await app.register(messagesRoutes);
};
