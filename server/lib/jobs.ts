import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { type ExecuteSql, type JobData, type JobName, jobNames } from '../db/job-queue';

/** What scheduling needs of the caller's transaction (a Drizzle transaction handle). */
type Transaction = { execute(query: SQL): PromiseLike<unknown> };

/**
 * Deadlines, kept by pg-boss in the database (docs/decisions/0017-deadlines-in-pg-boss.md):
 * a job is scheduled in the transaction that starts the deadline, so it
 * exists exactly when that change committed; it survives restarts; with
 * several instances each job runs on one of them (SKIP LOCKED). A job may
 * run again after a crash, so every handler re-checks the state it acts on
 * under the deal's lock and does nothing when the deadline no longer holds.
 */
/** What the job queue tells the metrics. */
export type JobObserver = {
  started(queue: JobName, latenessSeconds: number): void;
  failed(queue: JobName): void;
};

export class Jobs {
  private constructor(
    private readonly boss: PgBoss,
    private readonly pollingIntervalSeconds: number,
    private readonly observer: JobObserver | undefined,
  ) {}

  /**
   * Starts fetching and maintaining jobs on the server's own login (the restricted role: everything
   * pg-boss does once installed is reading and writing rows of its tables). Its schema and the queues
   * are already there: `installJobQueue`, run by openDatabase as the owner.
   */
  static async start(options: {
    executeSql: ExecuteSql;
    pollingIntervalSeconds?: number;
    log: FastifyBaseLogger;
    observer?: JobObserver;
  }) {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => options.executeSql(text, values) },
      schema: 'pgboss',
      // Installing and upgrading the schema is the owner's (installJobQueue): here it is only checked.
      migrate: false,
      // No cron schedules: each deadline is a job of its own.
      schedule: false,
    });
    boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
    await boss.start();
    return new Jobs(boss, options.pollingIntervalSeconds ?? 2, options.observer);
  }

  /** Schedules a job to run at `runAt`, in the caller's transaction: it exists only if that commits. */
  async schedule<N extends JobName>(tx: Transaction, name: N, data: JobData[N], runAt: Date) {
    await this.boss.send(name, data, {
      startAfter: runAt,
      db: { executeSql: (text, values) => executeIn(tx, text, values) },
    });
  }

  /** Runs `handle` for each due job of the kind, on whichever instance fetches it first. */
  async work<N extends JobName>(name: N, handle: (data: JobData[N]) => Promise<void>) {
    await this.boss.work<JobData[N]>(
      name,
      { pollingIntervalSeconds: this.pollingIntervalSeconds, batchSize: 10, includeMetadata: true },
      async (jobs) => {
        for (const job of jobs) {
          this.observer?.started(name, Math.max(0, Date.now() - new Date(job.startAfter).getTime()) / 1000);
          try {
            await handle(job.data);
          } catch (error) {
            this.observer?.failed(name);
            throw error;
          }
        }
      },
    );
  }

  /** Jobs waiting in each queue (created or to be retried, due or not). */
  async depths(): Promise<Record<JobName, number>> {
    const sizes = await Promise.all(jobNames.map((name) => this.boss.getQueueSize(name)));
    return Object.fromEntries(jobNames.map((name, index) => [name, sizes[index] ?? 0])) as Record<
      JobName,
      number
    >;
  }

  /** Stops fetching and waits (a few seconds at most) for the jobs in hand. */
  stop() {
    return this.boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
  }
}

/** pg-boss's own SQL ($1, $2… parameters) run on the caller's transaction handle. */
async function executeIn(tx: Transaction, text: string, values: unknown[] = []) {
  const chunks: SQL[] = text
    .split(/\$(\d+)/)
    .map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: unknown[] };
  return { rows: result.rows };
}
