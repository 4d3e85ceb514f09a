import { limits } from '../../../contract/limits';
import type { PrivacyUpdate } from '../../../contract/users';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { UserRow, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { presentUserTo, type Relationship } from './users.presenter';
import { usersRepository } from './users.repository';

type AccountChanges = Partial<typeof users.$inferInsert>;

/**
 * The users: the directory everyone signed in may browse, and the account rows
 * behind it, which the auth and profile features read and change through the
 * account methods below (the users table has one owner: this feature).
 */
export class UsersService {
  constructor(
    private readonly deps: {
      db: Db;
    },
  ) {}

  // ── The directory ──

  /** A page of the directory as the viewer may see it (privacy: presentUserTo). */
  async list(options: {
    viewerId: number;
    keyword?: string;
    excludeIds?: number[];
    limit?: number;
    beforeId?: number;
  }) {
    const found = await usersRepository.list(this.deps.db, {
      viewerId: options.viewerId,
      keyword: options.keyword,
      excludeIds: options.excludeIds,
      beforeId: options.beforeId,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
    });
    return found.map(({ user, sharesDeal }) =>
      presentUserTo(user, relationship(options.viewerId, user.id, sharesDeal)),
    );
  }

  /** One verified user as the viewer may see them; 404 when there is none. */
  async getByUsername(username: string, viewerId: number) {
    const found = await usersRepository.findByUsernameFor(this.deps.db, username, viewerId);
    if (!found?.user.verifiedAt) throw notFound('User not found');
    return presentUserTo(found.user, relationship(viewerId, found.user.id, found.sharesDeal));
  }

  /** The account row of a verified user, for other features' rules; 404 when there is none. */
  async findVerifiedByUsername(username: string) {
    const row = await usersRepository.findByUsername(this.deps.db, username);
    if (!row?.verifiedAt) throw notFound('User not found');
    return row;
  }

  async getById(id: number) {
    const row = await usersRepository.findById(this.deps.db, id);
    if (!row) throw notFound('User not found');
    return row;
  }

  // ── Accounts (auth, profile) ──

  findAccountById(id: number, db: DbOrTx = this.deps.db): Promise<UserRow | undefined> {
    return usersRepository.findById(db, id);
  }

  findAccountByUsername(username: string): Promise<UserRow | undefined> {
    return usersRepository.findByUsername(this.deps.db, username);
  }

  findAccountByEmail(email: string): Promise<UserRow | undefined> {
    return usersRepository.findByEmail(this.deps.db, email);
  }

  findAccountByVerificationKeyHash(hash: string): Promise<UserRow | undefined> {
    return usersRepository.findByVerificationKeyHash(this.deps.db, hash);
  }

  createAccount(values: typeof users.$inferInsert): Promise<UserRow> {
    return usersRepository.insert(this.deps.db, values);
  }

  deleteAccount(id: number): Promise<void> {
    return usersRepository.deleteById(this.deps.db, id);
  }

  /** Locks the account row for the rest of the transaction. */
  lockAccount(tx: Tx, id: number): Promise<UserRow | undefined> {
    return usersRepository.lockById(tx, id);
  }

  updateAccount(
    id: number,
    changes: AccountChanges,
    db: DbOrTx = this.deps.db,
  ): Promise<UserRow | undefined> {
    return usersRepository.update(db, id, changes);
  }

  /**
   * Changes who sees the user's email, date of birth and address. Unlike a profile edit it leaves
   * updatedAt alone: a profile's Last Updated tells others about the details they read, and who may
   * read them is not one of those details.
   */
  updatePrivacy(id: number, changes: PrivacyUpdate): Promise<UserRow | undefined> {
    return usersRepository.updateVisibility(this.deps.db, id, {
      emailVisibility: changes.email,
      dateOfBirthVisibility: changes.dateOfBirth,
      addressVisibility: changes.address,
    });
  }
}

function relationship(viewerId: number, userId: number, sharesDeal: boolean): Relationship {
  if (viewerId === userId) return 'self';
  return sharesDeal ? 'deal-partner' : 'stranger';
}
