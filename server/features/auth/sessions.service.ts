import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { limits } from '../../../contract/limits';
import type { Session } from '../../../contract/security';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { SessionRow } from '../../db/schema';
import { type AfterCommit, runCommittedEffects } from '../../db/transaction';
import type { BackgroundTasks } from '../../lib/background';
import { notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Mailer } from '../../lib/mail';
import { randomToken } from '../../lib/secrets';
import type { NotificationsService } from '../notifications/notifications.service';
import { type ClientInfo, deviceKeyHash, newDeviceKey } from './device';
import { type SessionState, sessionsRepository } from './sessions.repository';

/** Why a session ended, as the sessions list and the signed-out tab tell it. */
export type EndReason = 'signed-out' | 'ended-elsewhere' | 'password-changed' | 'password-reset';

/** What a tab whose session was ended elsewhere is told (the web app shows it). */
export const endedSessionMessages: Record<Exclude<EndReason, 'signed-out'>, string> = {
  'ended-elsewhere': 'You were signed out because this session was ended from another device.',
  'password-changed': 'You were signed out because your password was changed.',
  'password-reset': 'You were signed out because your password was reset.',
};

/** How stale a session's "last seen" may get before a request writes it again. */
const lastSeenResolutionMs = 60_000;
/** How old the cached state of a session may be: an ended session is refused within this on every instance. */
export const sessionStateTtlMs = 1000;

type Deps = {
  db: Db;
  config: Config;
  events: EventPublisher;
  notifications: NotificationsService;
  mailer: Mailer;
  background: BackgroundTasks;
  log: FastifyBaseLogger;
};

/**
 * Sessions: one per sign-in, named by the token (`sid`). A token is good only while its session is open;
 * ending one (here, from another device, or by a password change) reaches every instance within a second —
 * at once through a cluster signal, at worst when the cached state below expires — and closes its sockets.
 */
export class SessionsService {
  private readonly states = new LRUCache<string, SessionState | { missing: true }>({
    max: 50_000,
    ttl: sessionStateTtlMs,
    fetchMethod: async (id) => {
      const state = await sessionsRepository.state(this.deps.db, id);
      if (!state) return { missing: true };
      if (Date.now() - state.lastSeenAt.getTime() > lastSeenResolutionMs && !state.endedAt) {
        this.deps.background.run('recording when a session was last seen', () =>
          sessionsRepository.touch(this.deps.db, id),
        );
      }
      return state;
    },
  });

  constructor(private readonly deps: Deps) {
    // A session ended on any instance: forget its state here too (the sockets close in the realtime layer).
    deps.events.onSignal('session-ended', ({ sessionIds }) => {
      for (const id of sessionIds) this.states.delete(id);
    });
  }

  /**
   * Opens the session of a completed sign-in. The sign-in itself gave the account's factors (the password,
   * and the second factor of an account with one), so the session starts fresh for money and account
   * changes. A sign-in from a device the account has not used before is told to its owner (not the very first one).
   * Answers the session and, for a browser that had no device cookie, the new device key to give it.
   */
  async start(user: { id: number; username: string; email: string; fullName: string }, client: ClientInfo) {
    const { db } = this.deps;
    const sentKeyHash = deviceKeyHash(client.deviceKey);
    const firstEver = !(await sessionsRepository.hasAny(db, user.id));
    const known =
      firstEver ||
      (await sessionsRepository.knowsDevice(db, user.id, {
        keyHash: sentKeyHash,
        label: client.device,
        address: client.address,
      }));
    const givenKey = client.deviceKey ? null : newDeviceKey();
    const now = new Date();
    const session = await sessionsRepository.insert(db, {
      id: randomToken(18),
      userId: user.id,
      expiresAt: new Date(now.getTime() + limits.tokenLifetimeSeconds * 1000),
      userAgent: client.userAgent,
      device: client.device,
      address: client.address,
      deviceKeyHash: sentKeyHash ?? deviceKeyHash(givenKey),
      factorAt: now,
    });
    if (!known) this.announceNewDevice(user, session);
    return { session, givenDeviceKey: givenKey };
  }

  /** The session's state (cached for a second), or null when there is no such session. */
  async state(id: string): Promise<SessionState | null> {
    const state = await this.states.fetch(id);
    return !state || 'missing' in state ? null : state;
  }

  /** The same, read from the database now (a refusal double-checks what the cache says). */
  async freshState(id: string): Promise<SessionState | null> {
    this.states.delete(id);
    return this.state(id);
  }

  async list(userId: number, currentId: string): Promise<Session[]> {
    const rows = await sessionsRepository.listOpen(this.deps.db, userId);
    return rows.map((row) => presentSession(row, currentId));
  }

  /** Ends one of the user's sessions (another's, or an unknown one: 404 alike). */
  async end(userId: number, id: string, currentId: string) {
    const ended = await sessionsRepository.end(
      this.deps.db,
      userId,
      id,
      id === currentId ? 'signed-out' : 'ended-elsewhere',
    );
    if (ended.length === 0) throw notFound('Session not found.');
    this.tellEveryInstance(userId, [id], id === currentId ? 'signed-out' : 'ended-elsewhere');
  }

  /**
   * Ends every session of the user but `keep` (or all); the number ended. In a transaction (`db` with its
   * `afterCommit`), the other instances hear of it once it has committed.
   */
  async endAll(
    userId: number,
    reason: EndReason,
    options: { keep?: string; db?: DbOrTx; afterCommit?: AfterCommit } = {},
  ) {
    const ended = await sessionsRepository.endAll(options.db ?? this.deps.db, userId, reason, options.keep);
    const tell = () =>
      this.tellEveryInstance(
        userId,
        ended.map((row) => row.id),
        reason,
      );
    if (options.afterCommit) options.afterCommit(tell);
    else tell();
    return ended.length;
  }

  /** A second factor was given in this session now: it may move money for the next minutes. */
  async markFactorGiven(id: string, db: DbOrTx = this.deps.db) {
    const at = new Date();
    await sessionsRepository.markFactorGiven(db, id, at);
    this.states.delete(id);
    return new Date(at.getTime() + limits.security.stepUpFreshSeconds * 1000);
  }

  /** Forgets the cached state of the user's sessions here (their second factors or their account changed). */
  forgetUser(userId: number) {
    for (const [id, state] of this.states.entries()) {
      if (!('missing' in state) && state.userId === userId) this.states.delete(id);
    }
  }

  private tellEveryInstance(userId: number, sessionIds: string[], reason: EndReason) {
    if (sessionIds.length === 0) return;
    this.deps.events.signal('session-ended', {
      userId,
      sessionIds,
      message: reason === 'signed-out' ? null : endedSessionMessages[reason],
    });
  }

  /** A mail and a notification: someone signed in from a device this account had not used. */
  private announceNewDevice(
    user: { id: number; username: string; email: string; fullName: string },
    session: SessionRow,
  ) {
    const { config, mailer, notifications, db, log, background } = this.deps;
    const link = `${config.publicUrl}/profile#security`;
    const when = session.createdAt.toUTCString();
    const where = session.address ? ` (address ${session.address})` : '';
    background.run('telling of a sign-in from a new device', async () => {
      await notifications.store(db, runCommittedEffects(log), {
        dealId: null,
        actorId: null,
        notices: [
          {
            to: [user.id],
            kind: 'new-sign-in',
            message: `New sign-in to your account from ${session.device}${where}.`,
          },
        ],
      });
      await mailer.send({
        to: user.email,
        subject: 'New sign-in to your Dealmaker account',
        text:
          `Hello ${user.fullName},\n\nYour Dealmaker account (${user.username}) was just signed in to from a device it had not used before:\n\n` +
          `  Device: ${session.device}\n  Address: ${session.address ?? 'unknown'}\n  Time: ${when}\n\n` +
          `If this was you, there is nothing to do. If not, end that session and change your password: ${link}\n`,
        link,
      });
    });
  }
}

function presentSession(row: SessionRow, currentId: string): Session {
  return {
    id: row.id,
    current: row.id === currentId,
    device: row.device,
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  };
}
