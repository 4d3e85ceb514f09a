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

  /** Ready checks answered 503 since stopping began. */
  private checksWhileStopping = 0;

  private readonly readyCheckWaiters = new Set<() => void>();

  get stopping(): boolean {
    return this.stoppingSince !== undefined;
  }

  /** A load balancer's check arrived (called by GET /api/ready). */
  readyChecked() {
    this.lastReadyCheckAt = Date.now();
    if (this.stopping) {
      this.checksWhileStopping++;
      for (const wake of this.readyCheckWaiters) wake();
    }
  }

  beginStopping() {
    this.stoppingSince ??= Date.now();
  }

  /**
   * Resolves once a load balancer checking this instance has taken it out: it has been answered 503
   * `checks` times since beginStopping (a balancer takes an instance out after a few failed checks:
   * HAProxy's `fall 2` in deploy/haproxy.cfg), or at once when nothing has checked it in the last 30 s
   * (no balancer: `npm start` on a laptop stops without waiting), or after `maxWaitMs` whatever happens.
   */
  async untilLoadBalancerKnows(maxWaitMs: number, checks = 2): Promise<void> {
    if (Date.now() - this.lastReadyCheckAt > 30_000) return;
    const deadline = Date.now() + maxWaitMs;
    while (this.checksWhileStopping < checks && Date.now() < deadline) {
      let wake = () => {};
      const checked = new Promise<void>((resolve) => {
        wake = resolve;
        this.readyCheckWaiters.add(resolve);
      });
      await Promise.race([checked, sleep(deadline - Date.now(), undefined, { ref: false })]);
      this.readyCheckWaiters.delete(wake);
    }
  }
}
