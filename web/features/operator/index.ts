/** The Operator console's parts (operators only; the server refuses everyone else). */

// The audit log, filtered by deal or username, page after page.
export { AuditLogSection } from './audit-log';
// The escalated disputes, each with its settle form.
export { EscalatedDisputesSection } from './escalated-disputes';
// The money invariants, with Run again.
export { LedgerCheckSection } from './ledger-check';
