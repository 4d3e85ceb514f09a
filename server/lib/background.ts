import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a call starts but does not wait for (a mail sent after answering, so
 * the answer reveals nothing by its timing). Failures are logged; shutting
 * down waits for what is in flight, and so can a test.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, work: () => Promise<unknown>): void {
    const task = Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (error) => this.log.error({ err: error }, `${what} failed`),
      )
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves once nothing started before the call is running any more. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
