import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether this instance is serving or stopping, and what its load balancer has seen of it. On SIGTERM
 * the instance first answers /api/ready with 503 and, if a load balancer has been checking it, keeps
 * serving until the balancer's next check has seen that (so it sends nobody new here), then stops
 * taking connections (server/index.ts).
 */
export class InstanceLifecycle {
  private stoppingSince: number | undefined;

  private lastReadyCheckAt = 0;

  private readonly readyCheckWaiters = new Set<() => void>();

  get stopping(): boolean {
    return this.stoppingSince !== undefined;
  }

  /** A load balancer's check arrived (called by GET /api/ready). */
  readyChecked() {
    this.lastReadyCheckAt = Date.now();
    if (this.stopping) {
      for (const wake of this.readyCheckWaiters) wake();
      this.readyCheckWaiters.clear();
    }
  }

  beginStopping() {
    this.stoppingSince ??= Date.now();
  }

  /**
   * Resolves once a load balancer checking this instance has been told it is stopping (its next
   * /api/ready after beginStopping), or at once when nothing has checked it in the last 30 s (no
   * balancer: `npm start` on a laptop stops without waiting), or after `maxWaitMs` whatever happens.
   */
  async untilLoadBalancerKnows(maxWaitMs: number): Promise<void> {
    if (Date.now() - this.lastReadyCheckAt > 30_000) return;
    let wake = () => {};
    const checked = new Promise<void>((resolve) => {
      wake = resolve;
      this.readyCheckWaiters.add(resolve);
    });
    await Promise.race([checked, sleep(maxWaitMs, undefined, { ref: false })]);
    this.readyCheckWaiters.delete(wake);
  }
}
