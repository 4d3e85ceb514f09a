import type { FastifyBaseLogger } from 'fastify';
import type { NewSavedSearch, SavedSearch } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { formatUsdCents } from '../../../contract/money';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Transact } from '../../db/transaction';
import type { BackgroundTasks } from '../../lib/background';
import { conflict, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Jobs } from '../../lib/jobs';
import type { Mailer } from '../../lib/mail';
import type { NotificationsService } from '../notifications/notifications.service';
import { presentSavedSearch } from './saved-searches.presenter';
import { savedSearchesRepository as repository, type StoredQuery } from './saved-searches.repository';

const savedSearchNotFound = () => notFound('Saved search not found.');

/**
 * Saved searches of the deals list and their alerts (docs/decisions/0029-deal-search-and-filters.md):
 * a deal that is posted, or changes so that it fits, is matched against every saved search with
 * alerts on; each owner is told once per deal (a 'saved-search-match' notification) and, when not
 * connected, mailed the new matches: the first mail within a minute, then at most one an hour.
 */
export class SavedSearchesService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      notifications: NotificationsService;
      events: EventPublisher;
      mailer: Mailer;
      jobs: Jobs;
      background: BackgroundTasks;
      config: Config;
      log: FastifyBaseLogger;
    },
  ) {}

  async create(userId: number, input: NewSavedSearch): Promise<SavedSearch> {
    const { q, status, minBudget, maxBudget } = input.query;
    const query: StoredQuery = {
      ...(q !== undefined ? { q } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(minBudget !== undefined ? { minBudgetCents: minBudget } : {}),
      ...(maxBudget !== undefined ? { maxBudgetCents: maxBudget } : {}),
    };
    const id = await this.deps.transact(async (tx) => {
      // Counted under a lock of the user's searches: two saves at once cannot pass 20 together.
      await repository.lockSearchesOf(tx, userId);
      if ((await repository.countOf(tx, userId)) >= limits.discovery.savedSearchesPerUser) {
        throw conflict(
          `You can keep at most ${limits.discovery.savedSearchesPerUser} saved searches: delete one first.`,
        );
      }
      return repository.insert(tx, { userId, name: input.name, query, alert: input.alert });
    });
    return this.own(id, userId);
  }

  async list(userId: number): Promise<SavedSearch[]> {
    return (await repository.list(this.deps.db, userId)).map(presentSavedSearch);
  }

  async setAlert(id: number, userId: number, alert: boolean) {
    if (!(await repository.updateOwn(this.deps.db, id, userId, { alert }))) throw savedSearchNotFound();
    return this.own(id, userId);
  }

  /** Its owner opened it: its matches so far are no longer new. */
  async seen(id: number, userId: number) {
    const changed = await repository.updateOwn(this.deps.db, id, userId, { seenAt: new Date() });
    if (!changed) throw savedSearchNotFound();
    return this.own(id, userId);
  }

  async delete(id: number, userId: number) {
    if (!(await repository.deleteOwn(this.deps.db, id, userId))) throw savedSearchNotFound();
    return { message: 'Saved search deleted.' };
  }

  /** A deal was posted or changed: the saved searches it fits now are told, after the answer. */
  dealChanged(dealId: number) {
    this.deps.background.run('matching a deal with saved searches', () => this.alert(dealId));
  }

  private async alert(dealId: number) {
    await this.deps.transact(async (tx, afterCommit) => {
      const matches = await repository.recordMatches(tx, dealId);
      if (matches.length === 0) return;
      await this.deps.notifications.store(tx, afterCommit, {
        dealId,
        actorId: null,
        notices: matches.map((match) => ({
          to: [match.userId],
          kind: 'saved-search-match' as const,
          message: `A new deal matches your saved search "${match.name}": "${match.dealTitle}".`,
        })),
      });
      const live: number[] = [];
      for (const match of matches) {
        if (await this.deps.events.isOnline(match.userId)) {
          live.push(match.id);
          continue;
        }
        const due = await repository.claimMailDue(
          tx,
          match.id,
          this.deps.config.savedSearchMailGatherSeconds,
        );
        if (due) await this.deps.jobs.schedule(tx, 'saved-search-mail', { savedSearchId: match.id }, due);
      }
      await repository.toldLive(tx, live, dealId);
    });
  }

  /**
   * The 'saved-search-mail' job: mails the owner the matches no mail has listed (none when they are
   * connected now: the notifications reach them). Sent inside the transaction, so that a failed
   * mail leaves the matches unmailed and the job is tried again.
   */
  async mailWhenDue(savedSearchId: number) {
    await this.deps.transact(async (tx) => {
      const found = await repository.lockForMail(tx, savedSearchId);
      if (!found) return;
      const matches = await repository.unmailed(tx, savedSearchId);
      const connected = await this.deps.events.isOnline(found.search.userId);
      if (matches.length > 0 && !connected) {
        const base = this.deps.config.publicUrl;
        const lines = matches.map(
          (match) => `- ${match.title} (${formatUsdCents(match.budgetCents)}): ${base}/deals/${match.dealId}`,
        );
        const count = matches.length === 1 ? 'A new deal matches' : `${matches.length} new deals match`;
        await this.deps.mailer.send({
          to: found.email,
          subject: `Dealmaker: ${count} "${found.search.name}"`,
          text:
            `Hello ${found.fullName},\n\n${count} your saved search "${found.search.name}":\n\n${lines.join('\n')}\n\n` +
            `You get this mail because the search's alerts are on and you were not signed in. ` +
            `To turn them off: ${base}/deals\n`,
          link: `${base}/deals/${matches[0]!.dealId}`,
        });
      }
      await repository.mailed(tx, savedSearchId);
      await repository.finishMail(tx, savedSearchId, matches.length > 0 && !connected);
    });
  }

  private async own(id: number, userId: number): Promise<SavedSearch> {
    const row = await repository.findOwn(this.deps.db, id, userId);
    if (!row) throw savedSearchNotFound();
    return presentSavedSearch(row);
  }
}
