import PgBoss from 'pg-boss';

/** Plain SQL with $1… parameters, as pg-boss sends it, on a pool or one connection. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
/** Every kind of job and what it carries. */
export type JobData = {
  /** Refund a half that has waited alone for the other too long (EscrowService). */
  'escrow-half-expiry': { dealId: number };
  /** Release a submitted milestone nobody approved or disputed in time (MilestonesService). */
  'milestone-auto-release': { milestoneId: number };
  /** Send a dispute nothing has settled in time to the operators (DisputesService). */
  'dispute-escalation': { disputeId: number };
  /** Mail a saved search's owner the deals it found since its last mail (SavedSearchesService). */
  'saved-search-mail': { savedSearchId: number };
};
export type JobName = keyof JobData;
export const jobNames: JobName[] = [
  'escrow-half-expiry',
  'milestone-auto-release',
  'dispute-escalation',
  'saved-search-mail',
];

/**
 * Installs pg-boss's schema, or brings it up to pg-boss's version, and creates the queues that do not
 * exist yet (each queue is a table of its own: DDL). openDatabase runs it as the database's owner,
 * right after the migrations and under their advisory lock, so instances starting together take turns
 * (pg-boss's own guard, and its createQueue, race or deadlock when two run at once).
 */
export async function installJobQueue(executeSql: ExecuteSql) {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => executeSql(text, values) },
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
  const options = JSON.stringify({ policy: 'standard', retryLimit: 10, retryDelay: 5, retryBackoff: true });
  for (const name of jobNames) {
    // The names and options are constants of this file: nothing from outside reaches this SQL.
    await executeSql(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = '${name}') THEN
        PERFORM pgboss.create_queue('${name}', '${options}'::json);
      END IF;
    END $$`);
  }
}
