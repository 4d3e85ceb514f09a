import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, Tx } from '../db/client';

/** Every kind of job and what it carries. */
export type JobData = {
  /** Refund a half that has waited alone for the other too long (EscrowService). */
  'escrow-half-expiry': { dealId: number };
  /** Send a dispute nothing has settled in time to the operators (DisputesService). */
  'dispute-escalation': { disputeId: number };
};
export type JobName = keyof JobData;
const jobNames: JobName[] = ['escrow-half-expiry', 'dispute-escalation'];

/**
 * Deadlines, kept by pg-boss in the database (docs/decisions/0017-deadlines-in-pg-boss.md):
 * a job is scheduled in the transaction that starts the deadline, so it
 * exists exactly when that change committed; it survives restarts; with
 * several instances each job runs on one of them (SKIP LOCKED). A job may
 * run again after a crash, so every handler re-checks the state it acts on
 * under the deal's lock and does nothing when the deadline no longer holds.
 */
export class Jobs {
  private constructor(
    private readonly boss: PgBoss,
    private readonly pollingIntervalSeconds: number,
  ) {}

  static async start(options: {
    executeSql: Database['executeSql'];
    pollingIntervalSeconds?: number;
    log: FastifyBaseLogger;
  }) {
    const boss = await startBoss(options);
    await createQueues(options.executeSql);
    return new Jobs(boss, options.pollingIntervalSeconds ?? 2);
  }

  /** Schedules a job to run at `runAt`, in the caller's transaction: it exists only if that commits. */
  async schedule<N extends JobName>(tx: Tx, name: N, data: JobData[N], runAt: Date) {
    await this.boss.send(name, data, {
      startAfter: runAt,
      db: { executeSql: (text, values) => executeIn(tx, text, values) },
    });
  }

  /** Runs `handle` for each due job of the kind, on whichever instance fetches it first. */
  async work<N extends JobName>(name: N, handle: (data: JobData[N]) => Promise<void>) {
    await this.boss.work<JobData[N]>(
      name,
      { pollingIntervalSeconds: this.pollingIntervalSeconds, batchSize: 10 },
      async (jobs) => {
        for (const job of jobs) await handle(job.data);
      },
    );
  }

  /** Stops fetching and waits (a few seconds at most) for the jobs in hand. */
  stop() {
    return this.boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
  }
}

/**
 * Starts pg-boss, installing its schema on first use. Instances starting together on a fresh database
 * race to install it, and pg-boss's own guard can let the later one fail ("duplicate key … pgboss"):
 * that one then finds the schema installed with a new PgBoss (a failed one cannot be started again).
 */
async function startBoss(options: { executeSql: Database['executeSql']; log: FastifyBaseLogger }) {
  for (let attempt = 1; ; attempt++) {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => options.executeSql(text, values) },
      schema: 'pgboss',
      // No cron schedules: each deadline is a job of its own.
      schedule: false,
    });
    boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
    try {
      await boss.start();
      return boss;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Any number that no other advisory lock of the product uses (migrations use another). */
const queueCreationLockKey = 727_411_002;

/**
 * Creates the queues that do not exist yet. pg-boss's createQueue run by two instances starting together
 * deadlocks in PostgreSQL, so the instances take turns under an advisory lock, and the check for an
 * existing queue runs after the lock is held (a DO block's statements each see what committed before).
 */
async function createQueues(executeSql: Database['executeSql']) {
  const options = JSON.stringify({ policy: 'standard', retryLimit: 10, retryDelay: 5, retryBackoff: true });
  for (const name of jobNames) {
    // The names and options are constants of this file: nothing from outside reaches this SQL.
    await executeSql(`DO $$ BEGIN
      PERFORM pg_advisory_xact_lock(${queueCreationLockKey});
      IF NOT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = '${name}') THEN
        PERFORM pgboss.create_queue('${name}', '${options}'::json);
      END IF;
    END $$`);
  }
}

/** pg-boss's own SQL ($1, $2… parameters) run on the caller's transaction handle. */
async function executeIn(tx: Tx, text: string, values: unknown[] = []) {
  const chunks: SQL[] = text
    .split(/\$(\d+)/)
    .map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: unknown[] };
  return { rows: result.rows };
}
