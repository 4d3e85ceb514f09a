import type { FastifyBaseLogger } from 'fastify';
import {
  type EmailedNotificationKind,
  emailedKindLabels,
  emailedNotificationKinds,
  type NotificationKind,
  type NotificationList,
  type NotificationPreferences,
} from '../../../contract/notifications';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import type { Alongside } from '../../db/prepared';
import type { NotificationRow } from '../../db/schema';
import type { AfterCommit } from '../../db/transaction';
import type { BackgroundTasks } from '../../lib/background';
import { notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Mailer } from '../../lib/mail';
import { presentNotification } from './notifications.presenter';
import {
  type NewNotification,
  notificationsRepository,
  type StoredChatNotice,
} from './notifications.repository';

/** Users a change concerns, as services name them: a deal's empty seats (null) are nobody. */
export type Notice = { to: Array<number | null | undefined>; kind: NotificationKind; message: string };

const emailed = new Set<string>(emailedNotificationKinds);

/**
 * Stored notifications (contract/notifications.ts): written in the
 * transaction of the change they tell of — never to its actor — and delivered
 * after the commit to the user's room on every instance, with the new unread
 * count; the kinds that need action or carry money are also mailed to a user
 * who is not connected, at most once an hour per kind and deal, unless they
 * turned that kind off.
 */
export class NotificationsService {
  constructor(
    private readonly deps: {
      db: Db;
      events: EventPublisher;
      mailer: Mailer;
      background: BackgroundTasks;
      config: Config;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * Stores the notices of a change in its transaction and delivers them once it commits. Given the
   * database itself (a change already committed on its own), they are stored at once and delivered then.
   * A write of the change that comes `alongside` is made by the same statement.
   */
  async store(
    tx: DbOrTx,
    afterCommit: AfterCommit,
    change: { dealId: number | null; actorId: number | null; notices: Notice[] },
    alongside?: Alongside,
  ) {
    const rows: NewNotification[] = [];
    for (const notice of change.notices) {
      const recipients = new Set(notice.to.filter((id): id is number => typeof id === 'number'));
      if (change.actorId !== null) recipients.delete(change.actorId);
      for (const userId of recipients) {
        rows.push({
          userId,
          kind: notice.kind,
          dealId: change.dealId,
          actorId: change.actorId,
          message: notice.message,
        });
      }
    }
    const stored = await notificationsRepository.insert(tx, rows, alongside);
    if (stored.length === 0) return;
    afterCommit(() => {
      for (const { unreadCount, ...row } of stored) this.deliver(row, unreadCount);
    });
  }

  /**
   * The notifications of a sender's chat messages, for the statement that stores them to carry
   * (messages.repository `send`): to each of `to` but the sender, stored only with a message, and
   * only the first of an unread burst (notifications.repository `chatBurst`).
   */
  chatBurst(message: {
    dealId: number;
    senderId: number;
    to: number[];
    text: string;
  }): Alongside<StoredChatNotice> {
    return notificationsRepository.chatBurst({
      dealId: message.dealId,
      actorId: message.senderId,
      recipients: [...new Set(message.to)].filter((userId) => userId !== message.senderId),
      message: message.text,
    });
  }

  /** Delivers the chat notifications a message's statement stored with it, once it has committed. */
  deliverChatBurst(message: { dealId: number; senderId: number }, stored: StoredChatNotice[]) {
    for (const { unreadCount, ...notice } of stored) {
      this.deliver(
        {
          ...notice,
          kind: 'message',
          dealId: message.dealId,
          actorId: message.senderId,
          repeats: 1,
          readAt: null,
        },
        unreadCount,
      );
    }
  }

  async list(userId: number, options: { limit: number; before?: number }): Promise<NotificationList> {
    const rows = await notificationsRepository.list(this.deps.db, userId, {
      beforeId: options.before,
      limit: options.limit,
    });
    return { notifications: rows.map(presentNotification), unreadCount: await this.unreadCount(userId) };
  }

  /**
   * Marks the user's notifications read (idempotent). Someone else's and ones that do not exist get the
   * same 404, and nothing is marked: an answer that told them apart would let anyone probe which ids exist.
   */
  async markRead(userId: number, which: { ids: number[] } | { all: true }) {
    if ('ids' in which) {
      const owned = await notificationsRepository.countOwned(this.deps.db, userId, which.ids);
      if (owned < new Set(which.ids).size) throw notFound('Notification not found.');
    }
    await notificationsRepository.markRead(this.deps.db, userId, 'ids' in which ? which.ids : 'all');
    return { unreadCount: await this.unreadCount(userId) };
  }

  /** Reading a deal's chat reads the chat notifications of that deal. */
  markChatRead(db: DbOrTx, userId: number, dealId: number) {
    return notificationsRepository.markChatRead(db, userId, dealId);
  }

  async preferences(userId: number): Promise<NotificationPreferences> {
    const settings = await notificationsRepository.emailSettings(this.deps.db, userId);
    const off = new Set(settings.filter((setting) => !setting.enabled).map((setting) => setting.kind));
    return {
      email: Object.fromEntries(emailedNotificationKinds.map((kind) => [kind, !off.has(kind)])) as Record<
        EmailedNotificationKind,
        boolean
      >,
    };
  }

  async setPreferences(userId: number, change: { email: Partial<Record<EmailedNotificationKind, boolean>> }) {
    await notificationsRepository.setEmailSettings(
      this.deps.db,
      userId,
      Object.entries(change.email).map(([kind, enabled]) => ({ kind, enabled: Boolean(enabled) })),
    );
    return this.preferences(userId);
  }

  private async unreadCount(userId: number) {
    return (await notificationsRepository.unreadCounts(this.deps.db, [userId])).get(userId) ?? 0;
  }

  private deliver(row: NotificationRow, unreadCount: number) {
    this.deps.events.publish({ users: [row.userId] }, 'notification', {
      id: row.id,
      kind: row.kind as NotificationKind,
      dealId: row.dealId,
      message: row.message,
      count: row.repeats,
      createdAt: row.createdAt.toISOString(),
      unreadCount,
    });
    if (emailed.has(row.kind)) {
      this.deps.background.run('mailing a notification', () => this.mailIfAway(row));
    }
  }

  /** The mail of a notification, for a user with no connected socket who wants this kind by mail (at most one an hour per kind and deal). */
  private async mailIfAway(row: NotificationRow) {
    if (await this.deps.events.isOnline(row.userId)) return;
    const kind = row.kind as EmailedNotificationKind;
    const user = await notificationsRepository.claimHourlyMail(this.deps.db, row.userId, kind, row.dealId);
    if (!user) return;
    const base = this.deps.config.publicUrl;
    const link = row.dealId ? `${base}/deals/${row.dealId}` : `${base}/`;
    await this.deps.mailer.send({
      to: user.email,
      subject: `Dealmaker: ${emailedKindLabels[kind]}`,
      text:
        `Hello ${user.fullName},\n\n${row.message}\n\nOpen it: ${link}\n\n` +
        `You get this mail because you were not signed in. To choose which notifications are mailed to you: ${base}/profile#notifications\n`,
      link,
    });
  }
}
