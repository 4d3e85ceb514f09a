import type { Db, DbOrTx } from '../../db/client';
import { currentRequester } from '../../db/requester';
import { presentAuditEntry } from './audit.presenter';
import { auditRepository } from './audit.repository';

/** What the server itself records (row changes of deals and money are recorded by the database). */
export type AuditAction =
  | 'auth.sign-in'
  | 'auth.sign-in-failed'
  | 'auth.password-reset'
  | 'auth.password-changed'
  | 'auth.email-changed'
  | 'auth.totp-enabled'
  | 'auth.totp-disabled'
  | 'auth.passkey-added'
  | 'auth.passkey-removed'
  | 'auth.recovery-codes-issued'
  | 'operator.grant'
  | 'operator.revoke'
  | 'operator.settle'
  | 'operator.settle-refused'
  | 'operator.read-deal'
  | 'operator.ledger-check';

/**
 * The audit log (server/db/schema/audit.ts): the database writes an entry
 * for every change of a deal's rows and every money movement; this service
 * writes the rest and reads it for the operators.
 */
export class AuditService {
  constructor(
    private readonly deps: {
      db: Db;
    },
  ) {}

  /**
   * One entry, in the caller's transaction when it passes one. The actor and
   * address default to the request being served.
   */
  record(
    entry: {
      action: AuditAction;
      actor?: { id: number; username: string } | null;
      address?: string | null;
      dealId?: number | null;
      subject?: string;
      before?: unknown;
      after?: unknown;
    },
    db: DbOrTx = this.deps.db,
  ) {
    const requester = currentRequester();
    const actor = entry.actor === undefined ? requester.actor : entry.actor;
    return auditRepository.insert(db, {
      action: entry.action,
      actorId: actor?.id ?? null,
      actorUsername: actor?.username ?? null,
      address: entry.address === undefined ? (requester.address ?? null) : entry.address,
      dealId: entry.dealId ?? null,
      subject: entry.subject ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
  }

  async list(options: { limit: number; before?: number; dealId?: number; username?: string }) {
    const rows = await auditRepository.list(this.deps.db, { ...options, beforeId: options.before });
    return { entries: rows.map(presentAuditEntry) };
  }
}
