import type { AuditEntry } from '../../../contract/operator';
import type { AuditRow } from '../../db/schema';

export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actor: row.actorId !== null ? { id: row.actorId, username: row.actorUsername ?? '' } : null,
    action: row.action,
    dealId: row.dealId,
    subject: row.subject,
    before: row.before,
    after: row.after,
    address: row.address,
  };
}
