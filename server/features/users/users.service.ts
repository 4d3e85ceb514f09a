import { limits } from '../../../contract/limits';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { presentUser } from './users.presenter';
import { usersRepository } from './users.repository';

/** The user directory: listing, searching and looking up other users. */
export class UsersService {
  constructor(
    private readonly db: Db,
    /** Ids of a deal's dealers and dealmaker (empty when there is no such deal); supplied by the deals feature. */
    private readonly dealParticipantIds: (dealId: number) => Promise<number[]>,
  ) {}

  /** Users a dealer may request as dealmaker: never the caller, nor the deal's dealers or dealmaker. */
  async candidatesForRequest(callerId: number, keyword: string, dealId: number | undefined) {
    const excludeIds = [callerId, ...(dealId ? await this.dealParticipantIds(dealId) : [])];
    return this.list({ keyword, excludeIds });
  }

  async list(options: { keyword?: string; excludeIds?: number[]; limit?: number; beforeId?: number }) {
    const rows = await usersRepository.list(this.db, {
      keyword: options.keyword,
      excludeIds: options.excludeIds,
      beforeId: options.beforeId,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
    });
    return rows.map(presentUser);
  }

  async getByUsername(username: string) {
    const row = await usersRepository.findByUsername(this.db, username);
    if (!row?.verifiedAt) throw notFound('User not found');
    return presentUser(row);
  }

  /** The account row of a verified user, for other features' rules; 404 when there is none. */
  async findVerifiedByUsername(username: string) {
    const row = await usersRepository.findByUsername(this.db, username);
    if (!row?.verifiedAt) throw notFound('User not found');
    return row;
  }

  async getById(id: number) {
    const row = await usersRepository.findById(this.db, id);
    if (!row) throw notFound('User not found');
    return row;
  }
}
