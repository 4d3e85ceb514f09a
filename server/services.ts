import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { AuthService } from './features/auth/auth.service';
import { ProfileService } from './features/profile/profile.service';
import { UsersService } from './features/users/users.service';
import type { Mailer } from './lib/mail';

export type ServiceDeps = { config: Config; db: Db; mailer: Mailer; log: FastifyBaseLogger };

/** Builds every feature's service once; features reach each other only through these. */
export async function createServices(deps: ServiceDeps) {
  const auth = await AuthService.create(deps);
  const users = new UsersService(deps.db, async () => []);
  const profile = new ProfileService(deps.db);
  return {
    db: deps.db,
    auth,
    users,
    profile,
    async close() {},
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
